import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { bucket, eventBody, makeEvent, makeOrganization, makeTicketType, sk } from './catalogue-fixtures';

const t = useTestServer();

describe('POST /v1/organizer/events', () => {
  it('creates a draft event with the defaults and its event bucket', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant, { timezone: 'Europe/London' });
    const res = await t.http().post('/v1/organizer/events').set(sk(tenant)).send(eventBody(org.id, { capacity: 100 }));
    const event = expectStatus(res, 201).data;
    expect(event).toMatchObject({
      object: 'ticketed_event',
      livemode: false,
      organization: org.id,
      slug: 'nairobi-jazz-night',
      timezone: 'Europe/London',
      currency: 'KES',
      hold_minutes: 15,
      requires_approval: false,
      status: 'draft',
      capacity: 100,
      live_stream: null,
      published_at: null,
    });
    expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await bucket(t, `e:${event.id}`)).toMatchObject({ capacity: 100, held: 0, sold: 0, event_id: event.id });
  });

  it('makes the slug from the name, with a suffix when taken, and refuses a chosen slug that is taken', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const first = await makeEvent(t, tenant, org.id, { name: 'Café Olé!' });
    expect(first.slug).toBe('cafe-ole');
    const second = await makeEvent(t, tenant, org.id, { name: 'Café Olé!' });
    expect(second.slug).toMatch(/^cafe-ole-[a-z0-9]{5}$/);
    const res = await t.http().post('/v1/organizer/events').set(sk(tenant)).send(eventBody(org.id, { slug: 'cafe-ole' }));
    expectError(res, 409, 'slug_taken', { param: 'slug' });
    // Slugs are per environment and tenant.
    const liveOrg = (await t.http().post('/v1/organizations').set(sk(tenant, 'live')).send({ name: 'L', handle: 'live_org', kind: 'brand' })).body.data;
    expectStatus(await t.http().post('/v1/organizer/events').set(sk(tenant, 'live')).send(eventBody(liveOrg.id, { slug: 'cafe-ole' })), 201);
  });

  it('refuses bad fields with the field named', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const post = (fields: Record<string, unknown>) => t.http().post('/v1/organizer/events').set(sk(tenant)).send(eventBody(org.id, fields));
    const starts = new Date(Date.now() + 86_400_000).toISOString();
    expectError(await post({ starts_at: starts, ends_at: starts }), 422, 'validation_failed', { param: 'ends_at' });
    expectError(await post({ timezone: 'Mars/Olympus' }), 422, 'validation_failed', { param: 'timezone' });
    expectError(await post({ slug: 'Not A Slug' }), 422, 'validation_failed', { param: 'slug' });
    expectError(await post({ slug: '0190a0a0-0000-7000-8000-000000000000' }), 422, 'validation_failed', { param: 'slug' });
    expectError(await post({ currency: 'kes' }), 422, 'validation_failed', { param: 'currency' });
    expectError(await post({ hold_minutes: 0 }), 422, 'validation_failed', { param: 'hold_minutes' });
    expectError(await post({ capacity: -1 }), 422, 'validation_failed', { param: 'capacity' });
    expectError(await post({ live_stream: 'ls_01jd0000000000000000000000' }), 422, 'validation_failed', { param: 'live_stream' });
    expectError(await post({ live_stream: 'ast_01jd0000000000000000000000' }), 422, 'validation_failed', { param: 'live_stream' });
    expectError(await post({ organization: 'org_01jd0000000000000000000000' }), 422, 'validation_failed', { param: 'organization' });
    expectError(await post({ organization: undefined }), 422, 'validation_failed', { param: 'organization' });
  });

  it('takes a live stream of the same tenant and environment only', async () => {
    const tenant = await t.tenant();
    const other = await t.tenant('Other');
    const org = await makeOrganization(t, tenant);
    const mine = expectStatus(await t.http().post('/v1/streams/live_streams').set(sk(tenant)).send({}), 201).data;
    const theirs = expectStatus(await t.http().post('/v1/streams/live_streams').set(sk(other)).send({}), 201).data;
    const event = await makeEvent(t, tenant, org.id, { live_stream: mine.id });
    expect(event).toMatchObject({ live_stream: mine.id });
    const res = await t.http().post('/v1/organizer/events').set(sk(tenant)).send(eventBody(org.id, { live_stream: theirs.id }));
    expectError(res, 422, 'validation_failed', { param: 'live_stream' });
  });
});

describe('GET and PATCH /v1/organizer/events/{event}', () => {
  it('finds an event by slug or uuid, lists newest first with cursors, and filters', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const other = await makeOrganization(t, tenant);
    const a = await makeEvent(t, tenant, org.id, { name: 'A' });
    const b = await makeEvent(t, tenant, org.id, { name: 'B' });
    const c = await makeEvent(t, tenant, other.id, { name: 'C' });
    for (const ref of [a.slug, a.id, a.id.toUpperCase()]) {
      expect(expectStatus(await t.http().get(`/v1/organizer/events/${ref}`).set(sk(tenant)), 200).data.id).toBe(a.id);
    }
    expectError(await t.http().get('/v1/organizer/events/no-such-event').set(sk(tenant)), 404, 'resource_not_found');
    expectError(await t.http().get('/v1/organizer/events/Bad%20Ref').set(sk(tenant)), 404, 'resource_not_found');
    const page1 = expectStatus(await t.http().get('/v1/organizer/events?limit=2').set(sk(tenant)), 200);
    expect(page1.data.map((e: { id: string }) => e.id)).toEqual([c.id, b.id]);
    expect(page1.meta.pagination.has_more).toBe(true);
    const page2 = expectStatus(await t.http().get('/v1/organizer/events').query({ limit: 2, cursor: page1.meta.pagination.next_cursor }).set(sk(tenant)), 200);
    expect(page2.data.map((e: { id: string }) => e.id)).toEqual([a.id]);
    const filtered = expectStatus(await t.http().get('/v1/organizer/events').query({ organization: other.id }).set(sk(tenant)), 200);
    expect(filtered.data.map((e: { id: string }) => e.id)).toEqual([c.id]);
    expectError(await t.http().get('/v1/organizer/events?starting_after=nope').set(sk(tenant)), 400, 'invalid_request', { param: 'starting_after' });
    const after = expectStatus(await t.http().get('/v1/organizer/events').query({ starting_after: b.id }).set(sk(tenant)), 200);
    expect(after.data.map((e: { id: string }) => e.id)).toEqual([a.id]);
  });

  it('updates fields, keeps slugs unique and times ordered, and never lets capacity fall below seats taken', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const event = await makeEvent(t, tenant, org.id, { capacity: 10 });
    await makeEvent(t, tenant, org.id, { slug: 'taken' });
    const patch = (fields: Record<string, unknown>) => t.http().patch(`/v1/organizer/events/${event.id}`).set(sk(tenant)).send(fields);
    const updated = expectStatus(await patch({ name: 'Renamed', slug: 'renamed', venue: { name: 'KICC', city: 'Nairobi', country: 'KE' } }), 200).data;
    expect(updated).toMatchObject({ name: 'Renamed', slug: 'renamed', venue: { name: 'KICC', city: 'Nairobi', country: 'KE' } });
    expectStatus(await t.http().get('/v1/organizer/events/renamed').set(sk(tenant)), 200);
    expectError(await patch({ slug: 'taken' }), 409, 'slug_taken', { param: 'slug' });
    expectError(await patch({ ends_at: new Date(Date.now() + 3_600_000).toISOString() }), 422, 'validation_failed', { param: 'ends_at' });
    await t.ctx.db.updateTable('capacity_buckets').set({ held: 3, sold: 4 }).where('id', '=', `e:${event.id}`).execute();
    expectError(await patch({ capacity: 6 }), 422, 'validation_failed', { param: 'capacity' });
    expect(expectStatus(await patch({ capacity: 7 }), 200).data.capacity).toBe(7);
    expect(await bucket(t, `e:${event.id}`)).toMatchObject({ capacity: 7 });
    expect(expectStatus(await patch({ capacity: null }), 200).data.capacity).toBeNull();
    expect(await bucket(t, `e:${event.id}`)).toMatchObject({ capacity: null });
  });

  it("keeps tenants and environments apart", async () => {
    const tenant = await t.tenant();
    const stranger = await t.tenant('Stranger');
    const org = await makeOrganization(t, tenant);
    const event = await makeEvent(t, tenant, org.id);
    for (const key of [sk(stranger), sk(tenant, 'live')]) {
      expectError(await t.http().get(`/v1/organizer/events/${event.slug}`).set(key), 404, 'resource_not_found');
      expectError(await t.http().patch(`/v1/organizer/events/${event.id}`).set(key).send({ name: 'x' }), 404, 'resource_not_found');
      expect(expectStatus(await t.http().get('/v1/organizer/events').set(key), 200).data).toEqual([]);
    }
    // Another tenant's organization cannot own an event here.
    const res = await t.http().post('/v1/organizer/events').set(sk(stranger)).send(eventBody(org.id));
    expectError(res, 422, 'validation_failed', { param: 'organization' });
  });
});

describe('POST /v1/organizer/events/{event}/publish', () => {
  it('needs a ticket type, publishes once, sends events.event.published, and refuses a cancelled event', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const event = await makeEvent(t, tenant, org.id);
    const publish = () => t.http().post(`/v1/organizer/events/${event.slug}/publish`).set(sk(tenant));
    expectError(await publish(), 409, 'event_has_no_ticket_types');
    await makeTicketType(t, tenant, event.id);
    const published = expectStatus(await publish(), 200).data;
    expect(published).toMatchObject({ id: event.id, status: 'published' });
    expect(published.published_at).not.toBeNull();
    expect(expectStatus(await publish(), 200).data).toEqual(published);
    const log = expectStatus(await t.http().get('/v1/events?type=events.event.published').set(sk(tenant)), 200).data;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ type: 'events.event.published', subject: event.id, data: { object: published } });
    const draft = await makeEvent(t, tenant, org.id);
    await makeTicketType(t, tenant, draft.id);
    await t.ctx.db.updateTable('ticketed_events').set({ status: 'cancelled' }).where('id', '=', draft.id).execute();
    expectError(await t.http().post(`/v1/organizer/events/${draft.id}/publish`).set(sk(tenant)), 409, 'invalid_state_transition');
  });
});

describe('restricted keys', () => {
  it('read with events:read and write with events:write', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const key = async (scopes: string[]) =>
      expectStatus(await t.http().post('/v1/keys').set(sk(tenant)).send({ type: 'restricted', scopes }), 201).data.secret as string;
    const reader = bearer(await key(['events:read']));
    const writer = bearer(await key(['events:write']));
    const event = expectStatus(await t.http().post('/v1/organizer/events').set(writer).send(eventBody(org.id)), 201).data;
    expectStatus(await t.http().get(`/v1/organizer/events/${event.id}`).set(reader), 200);
    const refused = expectError(await t.http().patch(`/v1/organizer/events/${event.id}`).set(reader).send({ name: 'x' }), 403, 'missing_scope');
    expect(refused.details).toMatchObject({ required_scope: 'events:write' });
  });
});
