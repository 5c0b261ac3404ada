import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { attendees } from '../ticketing/booking-fixtures';
import { creatorFanbase, creatorOrg, customerTokenAuth, liveStream, pk, signIn, sk, tier, type Tenant } from './fanbases-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

const DAY = 86_400_000;

/** A published event of the organization, gated by `gate`, streaming, with one free ticket type. */
async function gatedEvent(tenant: Tenant, organization: string, gate: unknown) {
  const stream = await liveStream(t, tenant);
  const starts = new Date(Date.now() + 7 * DAY);
  const body = { organization, name: 'Members night', description: 'Backstage details.', starts_at: starts.toISOString(), ends_at: new Date(starts.getTime() + 3 * 3600_000).toISOString(), live_stream: stream, gate };
  const event = expectStatus(await t.http().post('/v1/organizer/events').set(sk(tenant)).send(body), 201).data;
  const ticket = expectStatus(await t.http().post(`/v1/organizer/events/${event.id}/ticket_types`).set(sk(tenant)).send({ name: 'Free entry', pricing_mode: 'fixed', price: 0 }), 201).data;
  expectStatus(await t.http().post(`/v1/organizer/events/${event.id}/publish`).set(sk(tenant)), 200);
  return { event, ticket };
}

const book = (auth: Record<string, string>, event: string, ticket: string) =>
  t.http().post(`/v1/events/${event}/book`).set(auth).send({ ticket_id: ticket, quantity: 1, buyer_name: 'Fan', buyer_email: 'fan@example.test', attendees: attendees(1) });
const read = async (auth: Record<string, string>, event: string) => expectStatus(await t.http().get(`/v1/events/${event}`).set(auth), 200).data;

describe('events gated to members and tiers', () => {
  it('shows the event locked, without description or stream, and refuses booking to all but members', async () => {
    const tenant = await t.tenant();
    const { org } = await creatorFanbase(t, tenant, 'evgate.one');
    const { event, ticket } = await gatedEvent(tenant, org.id, { type: 'members' });
    expect(event.gate).toEqual({ type: 'members', tiers: [] });

    const lockedShape = { locked: true, description: null, has_live_stream: false, gate: { type: 'members', tiers: [] } };
    expect(await read(pk(tenant), event.id)).toMatchObject(lockedShape);
    const listed = expectStatus(await t.http().get('/v1/events').query({ organization: org.id }).set(pk(tenant)), 200).data;
    expect(listed.find((e: { id: string }) => e.id === event.id)).toMatchObject(lockedShape);
    expect(JSON.stringify(listed)).not.toContain(event.live_stream);
    expectError(await book(pk(tenant), event.id, ticket.id), 403, 'access_denied', { reason: 'members_only' });

    // Public reads know the viewer by a customer token beside the publishable key; booking also by identity token.
    const fan = await signIn(t, tenant);
    const token = await customerTokenAuth(t, tenant, fan.token);
    expect(await read(token, event.id)).toMatchObject(lockedShape);
    expectError(await book(fan.auth, event.id, ticket.id), 403, 'access_denied', { reason: 'members_only' });
    expectError(await book(token, event.id, ticket.id), 403, 'access_denied', { reason: 'members_only' });
    expectStatus(await t.http().post('/v1/public/fanbases/evgate.one/join').set(fan.auth), 201);
    expect(await read(token, event.id)).toMatchObject({ locked: false, description: 'Backstage details.', has_live_stream: true });
    expect(expectStatus(await book(fan.auth, event.id, ticket.id), 201).data.booking).toMatchObject({ status: 'paid' });
    expectStatus(await book(token, event.id, ticket.id), 201);

    // Opening the gate opens the event to anyone.
    expectStatus(await t.http().patch(`/v1/organizer/events/${event.id}`).set(sk(tenant)).send({ gate: null }), 200);
    expect(await read(pk(tenant), event.id)).toMatchObject({ locked: false, gate: null, has_live_stream: true });
    expectStatus(await book(pk(tenant), event.id, ticket.id), 201);
  });

  it('a tiers gate opens only to members holding one of its tiers', async () => {
    const tenant = await t.tenant();
    const { org, fanbase } = await creatorFanbase(t, tenant, 'evgate.tiers');
    const gold = await tier(t, tenant, fanbase.id, { name: 'Gold', price: 50000, interval: 'month' });
    const silver = await tier(t, tenant, fanbase.id, { name: 'Silver', price: 20000, interval: 'month' });
    const { event, ticket } = await gatedEvent(tenant, org.id, { type: 'tiers', tiers: [gold.id] });
    const goldFan = await signIn(t, tenant);
    const silverFan = await signIn(t, tenant);
    expectStatus(await t.http().post(`/v1/fanbases/${fanbase.id}/members`).set(sk(tenant)).send({ customer: goldFan.customer, tier: gold.id }), 201);
    expectStatus(await t.http().post(`/v1/fanbases/${fanbase.id}/members`).set(sk(tenant)).send({ customer: silverFan.customer, tier: silver.id }), 201);
    expect(await read(await customerTokenAuth(t, tenant, silverFan.token), event.id)).toMatchObject({ locked: true, description: null, has_live_stream: false });
    expectError(await book(silverFan.auth, event.id, ticket.id), 403, 'access_denied', { reason: 'members_only' });
    expect(await read(await customerTokenAuth(t, tenant, goldFan.token), event.id)).toMatchObject({ locked: false, has_live_stream: true });
    expectStatus(await book(goldFan.auth, event.id, ticket.id), 201);
  });

  it('refuses gates without a fanbase, unknown tiers and mismatched shapes', async () => {
    const tenant = await t.tenant();
    const { org, fanbase } = await creatorFanbase(t, tenant, 'evgate.two');
    const other = await creatorFanbase(t, tenant, 'evgate.other');
    const foreign = await tier(t, tenant, other.fanbase.id, { name: 'Theirs', price: 100, interval: 'month' });
    const own = await tier(t, tenant, fanbase.id, { name: 'Ours', price: 100, interval: 'month' });
    const none = await creatorOrg(t, tenant, 'evgate.none');
    const starts = new Date(Date.now() + 7 * DAY);
    const make = (organization: string, gate: unknown) =>
      t.http().post('/v1/organizer/events').set(sk(tenant)).send({ organization, name: 'Gated', starts_at: starts.toISOString(), ends_at: new Date(starts.getTime() + 3600_000).toISOString(), gate });
    expectError(await make(org.id, { type: 'tiers', tiers: [own.id, foreign.id] }), 422, 'validation_failed', { param: 'gate.tiers.1' });
    expectError(await make(org.id, { type: 'tiers', tiers: [] }), 422, 'validation_failed', { param: 'gate.tiers' });
    expectError(await make(org.id, { type: 'members', tiers: [own.id] }), 422, 'validation_failed', { param: 'gate.tiers' });
    expectError(await make(none.id, { type: 'members' }), 422, 'validation_failed', { param: 'gate' });
    const made = expectStatus(await make(org.id, { type: 'tiers', tiers: [own.id, own.id] }), 201).data;
    expect(made.gate).toEqual({ type: 'tiers', tiers: [own.id] });
    expectError(await t.http().patch(`/v1/organizer/events/${made.id}`).set(sk(tenant)).send({ gate: { type: 'tiers', tiers: [foreign.id] } }), 422, 'validation_failed', { param: 'gate.tiers.0' });
  });
});
