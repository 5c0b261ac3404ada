import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { advance, signInByEmail } from '../identity/identity-fixtures';
import { recordEventsStarting } from '../../src/modules/ticketing/activity/activity-items';
import { makeOrganization, makePublishedEvent, sk, type Tenant } from './catalogue-fixtures';
import { attendee, bookAs, pk } from './booking-fixtures';
import { card, pay, sessionOf } from './payments-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

/** A tenant whose publishable key is not rate limited by the burst of bookings and reads a test makes. */
async function roomyTenant(name?: string) {
  const tenant = await t.tenant(name);
  await t.ctx.db.updateTable('tenants').set({ rate_limit_publishable: 10_000 }).where('id', '=', tenant.tenant.id).execute();
  return tenant;
}

async function buyAs(tenant: Tenant, headers: Record<string, string>, slug: string, ticketType: string, quantity: number, buyerName = 'Amina Kamau') {
  const body = { ticket_id: ticketType, quantity, buyer_name: buyerName, buyer_email: 'amina@example.test', buyer_phone: '+254700000001', attendees: Array.from({ length: quantity }, () => attendee()) };
  const { booking, payment } = expectStatus(await bookAs(t, headers, slug, body), 201).data;
  if (typeof payment === 'string') expectStatus(await pay(t, sessionOf(payment), card('4242424242424242')), 200);
  return booking as { id: string; code: string };
}

const feed = (headers: Record<string, string>, query: Record<string, string | number> = {}) => t.http().get('/v1/activity/feed').query(query).set(headers);

describe('GET /v1/activity/feed', () => {
  it('reports publishing, purchases (a first name and initial, no amount or contact), selling out and starting, newest first', async () => {
    const tenant = await roomyTenant();
    const org = await makeOrganization(t, tenant);
    const { event, ticketType } = await makePublishedEvent(t, tenant, org.id, { name: 'Jazz Night', capacity: 3 }, { price: 1500 });
    await buyAs(tenant, pk(tenant), event.slug, ticketType.id, 2);
    await buyAs(tenant, pk(tenant), event.slug, ticketType.id, 1, 'Baraka');
    // Starting within the hour (the scheduled job's work).
    await t.ctx.db.updateTable('ticketed_events').set({ starts_at: new Date(Date.now() + 30 * 60_000), ends_at: new Date(Date.now() + 3 * 3600_000) }).where('id', '=', event.id).execute();
    expect(await recordEventsStarting(t.ctx.db, new Date())).toBe(1);
    expect(await recordEventsStarting(t.ctx.db, new Date())).toBe(0);

    const all = expectStatus(await feed(pk(tenant)), 200);
    expect(all.data.map((i: { type: string }) => i.type)).toEqual(['event_starting', 'purchase', 'event_sold_out', 'purchase', 'event_published']);
    expect(all.data.map((i: { message: string }) => i.message)).toEqual([
      'Jazz Night starts soon',
      'Baraka got 1 ticket to Jazz Night',
      'Jazz Night is sold out',
      'Amina K. got 2 tickets to Jazz Night',
      'Jazz Night is on sale',
    ]);
    expect(all.data[3]).toMatchObject({ object: 'activity_item', actor: 'Amina K.', quantity: 2, event: { id: event.id, slug: event.slug, name: 'Jazz Night' }, organization: { id: org.id } });
    const text = JSON.stringify(all.data);
    for (const secret of ['amina@example.test', '254700000001', 'Kamau', '1500', '3000']) expect(text).not.toContain(secret);
    expect(all.meta).toEqual({ has_more: false, cursor: null });

    expect(expectStatus(await feed(sk(tenant), { type: 'purchases' }), 200).data.map((i: { type: string }) => i.type)).toEqual(['purchase', 'purchase']);
    expect(expectStatus(await feed(sk(tenant), { type: 'events' }), 200).data).toHaveLength(3);
    expect(expectStatus(await feed(sk(tenant), { event_slug: 'no-such-event' }), 200).data).toEqual([]);
    expect(expectStatus(await feed(sk(tenant), { organization_slug: 'nobody' }), 200).data).toEqual([]);
    expect(expectStatus(await feed(sk(tenant), { tenant_slug: tenant.tenant.code }), 200).data).toHaveLength(5);
    expect(expectStatus(await feed(sk(tenant), { tenant_slug: 'another-tenant' }), 200).data).toEqual([]);
  });

  it('pages with the cursor, shows only public events, and keeps to the tenant and environment', async () => {
    const tenant = await roomyTenant();
    const stranger = await roomyTenant('Stranger');
    const org = await makeOrganization(t, tenant);
    const { event, ticketType } = await makePublishedEvent(t, tenant, org.id, {}, { price: 0 });
    for (let i = 0; i < 6; i++) await buyAs(tenant, pk(tenant), event.slug, ticketType.id, 1, `Guest${i} Test`);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { data: { id: string }[]; meta: { has_more: boolean; cursor: string | null } } = expectStatus(await feed(pk(tenant), { limit: 3, ...(cursor ? { cursor } : {}) }), 200);
      seen.push(...page.data.map((i) => i.id));
      cursor = page.meta.cursor;
      expect(page.meta.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    expect([...seen].sort((a, b) => Number(b.slice(4)) - Number(a.slice(4)))).toEqual(seen);
    expectError(await feed(pk(tenant), { cursor: 'garbage' }), 422, 'validation_failed', { param: 'cursor' });

    expect(expectStatus(await feed(pk(stranger)), 200).data).toEqual([]);
    expect(expectStatus(await feed(pk(tenant, 'live')), 200).data).toEqual([]);
    // A cancelled event leaves the feed.
    await t.ctx.db.updateTable('ticketed_events').set({ status: 'cancelled' }).where('id', '=', event.id).execute();
    expect(expectStatus(await feed(pk(tenant)), 200).data).toEqual([]);
  });

  it('takes keys and signed-in people; 401 without a credential (a tenant header alone is none); 422 on bad queries', async () => {
    const tenant = await roomyTenant();
    const user = await signInByEmail(t, tenant);
    expectStatus(await feed({ ...bearer(user.access_token), 'X-Tenant-Code': tenant.tenant.code }), 200);
    expectStatus(await feed(sk(tenant)), 200);
    expectStatus(await feed(pk(tenant)), 200);
    expectError(await feed({}), 401, 'api_key_missing');
    expectError(await feed({ 'X-Tenant-Code': tenant.tenant.code }), 401, 'api_key_missing');
    for (const query of <Record<string, string | number>[]>[{ limit: 0 }, { limit: 51 }, { limit: 'x' }, { type: 'sales' }, { event_slug: 'x'.repeat(51) }, { organization_slug: 'x'.repeat(51) }, { tenant_slug: 'x'.repeat(51) }]) {
      expectError(await feed(sk(tenant), query), 422, 'validation_failed');
    }
    expectStatus(await feed(sk(tenant), { limit: 50, event_slug: 'x'.repeat(50) }), 200);
  });
});

describe('GET /v1/attendee/dashboard', () => {
  it('counts upcoming and past events with a valid ticket, active tickets, and what was spent less refunds', async () => {
    const tenant = await roomyTenant();
    const org = await makeOrganization(t, tenant);
    const soon = await makePublishedEvent(t, tenant, org.id, { name: 'Soon' }, { price: 1500 });
    const gone = await makePublishedEvent(t, tenant, org.id, { name: 'Gone' }, { price: 1500 });
    const voided = await makePublishedEvent(t, tenant, org.id, { name: 'Refunded' }, { price: 1000 });
    const me = await signInByEmail(t, tenant);
    const headers = { ...bearer(me.access_token), 'X-Tenant-Code': tenant.tenant.code };
    const empty = expectStatus(await t.http().get('/v1/attendee/dashboard').set(headers), 200);
    expect(empty.data).toEqual({ upcoming_events: 0, past_events: 0, active_tickets: 0, total_spent: 0, currency: 'KES' });

    await buyAs(tenant, headers, soon.event.slug, soon.ticketType.id, 2);
    await buyAs(tenant, headers, soon.event.slug, soon.ticketType.id, 1);
    const past = await buyAs(tenant, headers, gone.event.slug, gone.ticketType.id, 1);
    const refunded = await buyAs(tenant, headers, voided.event.slug, voided.ticketType.id, 1);
    expectStatus(await t.http().post(`/v1/orders/${past.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', `p-${past.id}`).send({ amount: 500 }), 201);
    expectStatus(await t.http().post(`/v1/orders/${refunded.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', `f-${refunded.id}`).send({}), 201);
    await t.ctx.db.updateTable('ticketed_events').set({ starts_at: new Date(Date.now() - 2 * 86_400_000), ends_at: new Date(Date.now() - 86_400_000) }).where('id', '=', gone.event.id).execute();

    // 4 × 1500 + 1000 paid, 500 + 1000 refunded: 5500 = KES 55. The refunded event's ticket is void.
    const mine = expectStatus(await t.http().get('/v1/attendee/dashboard').set(headers), 200);
    expect(mine.data).toEqual({ upcoming_events: 1, past_events: 1, active_tickets: 3, total_spent: 55, currency: 'KES' });

    advance(t, 61_000);
    const other = await signInByEmail(t, tenant);
    expect(expectStatus(await t.http().get('/v1/attendee/dashboard').set(bearer(other.access_token)), 200).data.active_tickets).toBe(0);
    expectError(await t.http().get('/v1/attendee/dashboard'), 401, 'api_key_missing');
    expectError(await t.http().get('/v1/attendee/dashboard').set(sk(tenant)), 403, 'insufficient_permissions');
  });
});
