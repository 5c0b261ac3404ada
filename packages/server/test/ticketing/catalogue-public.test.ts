import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { writePageViews } from '../kit/page-views';
import { makeEvent, makeOrganization, makePublishedEvent, makeTicketType, sk, type Tenant } from './catalogue-fixtures';

const t = useTestServer();

const pk = (tenant: Tenant) => ({ 'Svc-Publishable-Key': tenant.keys.test.publishable });
const ids = (body: { data: Array<{ id: string }> }) => body.data.map((e) => e.id);
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

describe('GET /v1/events for buyers', () => {
  it('lists and shows published events only, with prices, sale windows and availability, and nothing of buyers', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const { event, ticketType } = await makePublishedEvent(t, tenant, org.id, { capacity: 100, venue: { name: 'KICC' } }, { quantity: 10, price: 250_000 });
    await makeEvent(t, tenant, org.id, { name: 'Still a draft' });
    const listed = expectStatus(await t.http().get('/v1/events').set(pk(tenant)), 200);
    expect(ids(listed)).toEqual([event.id]);
    // Event pages call it from browsers.
    const fromPage = await t.http().get('/v1/events').set(pk(tenant)).set('Origin', 'https://tickets.example');
    expect(fromPage.headers['access-control-allow-origin']).toBe('https://tickets.example');
    const shown = expectStatus(await t.http().get(`/v1/events/${event.slug}`).set(pk(tenant)), 200).data;
    expect(shown).toEqual(listed.data[0]);
    expect(shown).toMatchObject({
      object: 'ticketed_event',
      slug: event.slug,
      status: 'published',
      currency: 'KES',
      venue: { name: 'KICC' },
      has_live_stream: false,
      slots: [],
      ticket_types: [{ id: ticketType.id, object: 'ticket_type', price: 250_000, pricing_mode: 'fixed', sale_starts_at: null, sale_ends_at: null, availability: 'available' }],
    });
    for (const hidden of ['capacity', 'hold_minutes', 'metadata', 'live_stream', 'attendees', 'orders']) expect(shown).not.toHaveProperty(hidden);
    expect(shown.ticket_types[0]).not.toHaveProperty('quantity');
    expectError(await t.http().get('/v1/events/still-a-draft').set(pk(tenant)), 404, 'resource_not_found');
  });

  it('tells available, sold out and not on sale apart', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const { event, ticketType } = await makePublishedEvent(t, tenant, org.id, { capacity: 5 }, { quantity: 3, min_per_order: 2 });
    const later = await makeTicketType(t, tenant, event.id, { name: 'Later', sale_starts_at: inHours(24) });
    const over = await makeTicketType(t, tenant, event.id, { name: 'Over', sale_starts_at: inHours(-48), sale_ends_at: inHours(-24) });
    const paused = await makeTicketType(t, tenant, event.id, { name: 'Paused', status: 'paused' });
    const open = await makeTicketType(t, tenant, event.id, { name: 'Open' });
    const availability = async () => {
      const shown = expectStatus(await t.http().get(`/v1/events/${event.slug}`).set(pk(tenant)), 200).data;
      return Object.fromEntries(shown.ticket_types.map((tt: { id: string; availability: string }) => [tt.id, tt.availability]));
    };
    expect(await availability()).toEqual({ [ticketType.id]: 'available', [later.id]: 'not_on_sale', [over.id]: 'not_on_sale', [paused.id]: 'not_on_sale', [open.id]: 'available' });
    // Two of three taken: the smallest order (two) no longer fits the ticket type; the event still has room for others.
    await t.ctx.db.updateTable('capacity_buckets').set({ sold: 2 }).where('id', '=', `t:${ticketType.id}`).execute();
    expect((await availability())[ticketType.id]).toBe('sold_out');
    expect((await availability())[open.id]).toBe('available');
    await t.ctx.db.updateTable('capacity_buckets').set({ held: 5 }).where('id', '=', `e:${event.id}`).execute();
    expect((await availability())[open.id]).toBe('sold_out');
  });

  it('tells a slot event sold out when no slot has room', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const event = await makeEvent(t, tenant, org.id);
    const tt = await makeTicketType(t, tenant, event.id, { quantity: 2 });
    const slot = expectStatus(
      await t.http().post(`/v1/organizer/events/${event.id}/slots`).set(sk(tenant)).send({ starts_at: inHours(24), ends_at: inHours(25), capacity: 10 }),
      201,
    ).data;
    expectStatus(await t.http().post(`/v1/organizer/events/${event.id}/publish`).set(sk(tenant)), 200);
    const show = async () => expectStatus(await t.http().get(`/v1/events/${event.id}`).set(pk(tenant)), 200).data;
    expect((await show()).ticket_types[0].availability).toBe('available');
    expect((await show()).slots).toEqual([{ id: slot.id, object: 'event_slot', starts_at: slot.starts_at, ends_at: slot.ends_at, availability: 'available' }]);
    await t.ctx.db
      .insertInto('capacity_buckets')
      .values({ id: `ts:${tt.id}:${slot.id}`, tenant_id: tenant.tenant.id, livemode: false, event_id: event.id, slot_id: slot.id, ticket_type_id: tt.id, capacity: 2, sold: 2 })
      .execute();
    expect((await show()).ticket_types[0].availability).toBe('sold_out');
    await t.ctx.db.updateTable('capacity_buckets').set({ sold: 10 }).where('id', '=', `s:${slot.id}`).execute();
    expect((await show()).slots[0].availability).toBe('sold_out');
  });

  it('serves the tenant header alone (live mode), and keeps tenants and environments apart', async () => {
    const tenant = await t.tenant();
    const stranger = await t.tenant('Stranger');
    const liveOrg = expectStatus(await t.http().post('/v1/organizations').set(sk(tenant, 'live')).send({ name: 'L', handle: 'live_pub', kind: 'brand' }), 201).data;
    const res = await t.http().post('/v1/organizer/events').set(sk(tenant, 'live')).send({
      organization: liveOrg.id,
      name: 'Live show',
      starts_at: inHours(24),
      ends_at: inHours(26),
    });
    const live = expectStatus(res, 201).data;
    const tt = await t.http().post(`/v1/organizer/events/${live.id}/ticket_types`).set(sk(tenant, 'live')).send({ name: 'GA', pricing_mode: 'fixed', price: 0 });
    expectStatus(tt, 201);
    expectStatus(await t.http().post(`/v1/organizer/events/${live.id}/publish`).set(sk(tenant, 'live')), 200);
    const header = { 'X-Tenant-Code': tenant.tenant.code };
    expect(ids(expectStatus(await t.http().get('/v1/events').set(header), 200))).toEqual([live.id]);
    expectStatus(await t.http().get(`/v1/events/${live.slug}`).set(header), 200);
    expect(expectStatus(await t.http().get('/v1/events').set(pk(tenant)), 200).data).toEqual([]);
    expectError(await t.http().get(`/v1/events/${live.slug}`).set(pk(tenant)), 404, 'resource_not_found');
    expectError(await t.http().get(`/v1/events/${live.slug}`).set({ 'X-Tenant-Code': stranger.tenant.code }), 404, 'resource_not_found');
  });

  it('keeps the log for keys, and gives them ticketed events when asked', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const { event } = await makePublishedEvent(t, tenant, org.id);
    const log = expectStatus(await t.http().get('/v1/events').set(sk(tenant)), 200).data;
    expect(log.every((e: { object: string }) => e.object === 'event')).toBe(true);
    expect(ids(expectStatus(await t.http().get('/v1/events?object=ticketed_event').set(sk(tenant)), 200))).toEqual([event.id]);
    expectStatus(await t.http().get(`/v1/events/${event.slug}`).set(sk(tenant)), 200);
    expectStatus(await t.http().get(`/v1/events/${log[0].id}`).set(sk(tenant)), 200);
    expectError(await t.http().get(`/v1/events/${log[0].id}`).set(pk(tenant)), 403, 'insufficient_permissions');
    const key = async (scopes: string[]) =>
      bearer(expectStatus(await t.http().post('/v1/keys').set(sk(tenant)).send({ type: 'restricted', scopes }), 201).data.secret as string);
    const eventsReader = await key(['events:read']);
    expectStatus(await t.http().get(`/v1/events/${event.slug}`).set(eventsReader), 200);
    expectStatus(await t.http().get('/v1/events?object=ticketed_event').set(eventsReader), 200);
    expectError(await t.http().get('/v1/events').set(eventsReader), 403, 'missing_scope');
    const logReader = await key(['platform:read']);
    expectStatus(await t.http().get('/v1/events').set(logReader), 200);
    const refused = expectError(await t.http().get(`/v1/events/${event.slug}`).set(logReader), 403, 'missing_scope');
    expect(refused.details).toMatchObject({ required_scope: 'events:read' });
    const noEvents = await t.tenant('No events', ['streams']);
    expectError(await t.http().get('/v1/events').set(pk(noEvents)), 403, 'product_not_enabled');
  });

  it('pages and filters the listing', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const other = await makeOrganization(t, tenant);
    const a = (await makePublishedEvent(t, tenant, org.id, { name: 'A' })).event;
    const b = (await makePublishedEvent(t, tenant, org.id, { name: 'B' })).event;
    const c = (await makePublishedEvent(t, tenant, other.id, { name: 'C' })).event;
    const first = expectStatus(await t.http().get('/v1/events?limit=2').set(pk(tenant)), 200);
    expect(ids(first)).toEqual([c.id, b.id]);
    const second = expectStatus(await t.http().get('/v1/events').query({ limit: 2, cursor: first.meta.pagination.next_cursor }).set(pk(tenant)), 200);
    expect(ids(second)).toEqual([a.id]);
    expect(ids(expectStatus(await t.http().get('/v1/events').query({ organization: other.id }).set(pk(tenant)), 200))).toEqual([c.id]);
  });
});

describe('page views', () => {
  it('counts a visitor once per 30 minutes per event, by a keyed hash, and not for keys', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const { event } = await makePublishedEvent(t, tenant, org.id);
    const view = (ua: string) => t.http().get(`/v1/events/${event.slug}`).set(pk(tenant)).set('User-Agent', ua);
    expectStatus(await view('Browser A'), 200);
    expectStatus(await view('Browser A'), 200);
    expectStatus(await view('Browser B'), 200);
    expectStatus(await t.http().get(`/v1/events/${event.slug}`).set(sk(tenant)), 200);
    expectStatus(await t.http().get('/v1/events').set(pk(tenant)), 200);
    await writePageViews(t);
    const rows = await t.ctx.db.selectFrom('event_page_views').selectAll().where('event_id', '=', event.id).execute();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ organization_id: org.id, tenant_id: tenant.tenant.id, livemode: false });
    for (const row of rows) {
      expect(row.visitor_hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(row.visitor_hash).not.toContain('127.0.0.1');
    }
    // Past the window the same visitor counts again.
    await t.ctx.db.updateTable('event_page_views').set({ viewed_at: new Date(Date.now() - 31 * 60_000) }).where('event_id', '=', event.id).execute();
    expectStatus(await view('Browser A'), 200);
    await writePageViews(t);
    expect(await t.ctx.db.selectFrom('event_page_views').select('id').where('event_id', '=', event.id).execute()).toHaveLength(3);
  });
});
