import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { bearer, useTestServer, type TestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { writePageViews } from '../kit/page-views';
import { advance, newPhone, signInByPhone } from '../identity/identity-fixtures';
import { secretOf } from './attendees-fixtures';
import { makeOrganization, makePublishedEvent, makeTicketType, sk, type Tenant, signedInMember } from './catalogue-fixtures';
import { pk } from './booking-fixtures';
import { card, pay, sessionOf } from './payments-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

/** A tenant whose publishable key is not rate limited by the burst of bookings and reads a test makes. */
async function roomyTenant(name?: string) {
  const tenant = await t.tenant(name);
  await t.ctx.db.updateTable('tenants').set({ rate_limit_publishable: 10_000 }).where('id', '=', tenant.tenant.id).execute();
  return tenant;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Today in Nairobi (UTC+3 all year): the organization's calendar. */
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Nairobi' }).format(new Date());
const D0 = Date.parse(`${today}T00:00:00Z`);
/** A moment on a Nairobi day (0 = today) at a local hour. */
const at = (day: number, hour: number) => new Date(D0 + day * DAY + (hour - 3) * HOUR);
const dateOf = (day: number) => new Date(D0 + day * DAY).toISOString().slice(0, 10);
const setClock = (when: Date) => {
  t.ctx.clock = () => new Date(when);
};

let n = 0;
const person = (email: string) => ({ first_name: 'Amina', last_name: `Kamau${n++}`, email, phone: null });

/** Books and pays by card at `when`; answers the order. */
async function buy(tenant: Tenant, event: string, ticketType: string, when: Date, emails: string[], extra: Record<string, unknown> = {}) {
  setClock(when);
  const body = { ticket_id: ticketType, quantity: emails.length, buyer_name: 'Amina Kamau', buyer_email: 'buyer@example.test', attendees: emails.map(person), ...extra };
  const { booking, payment } = expectStatus(await t.http().post(`/v1/events/${event}/book`).set(pk(tenant)).send(body), 201).data;
  expectStatus(await pay(t, sessionOf(payment), card('4242424242424242')), 200);
  return booking as { id: string };
}

/**
 * One organization in Nairobi with two events, sales over three days (one at 00:30 local, which is the day before
 * in UTC), a coupon, a partial refund, page views, a check-in. The expected figures are worked out by hand below.
 */
async function seed() {
  const tenant = await roomyTenant();
  const org = await makeOrganization(t, tenant, { timezone: 'Africa/Nairobi' });
  const e1 = await makePublishedEvent(t, tenant, org.id, { name: 'Jazz Night', capacity: 100 }, { name: 'GA', price: 1000 });
  const vip = await makeTicketType(t, tenant, e1.event.id, { name: 'VIP', price: 5000 });
  const e2 = await makePublishedEvent(t, tenant, org.id, { name: 'Poetry Slam' }, { name: 'Floor', price: 2000 });
  expectStatus(await t.http().post(`/v1/organizer/events/${e2.event.id}/coupons`).set(sk(tenant)).send({ code: 'SAVE10', discount_type: 'percent', value: 10 }), 201);

  // Day 0 at 00:30 Nairobi (21:30 UTC on day -1): 2 × GA = 2000.
  const first = await buy(tenant, e1.event.slug, e1.ticketType.id, at(0, 0.5), ['a@example.test', 'b@example.test']);
  // Day -1 at 23:30 Nairobi: 1 × VIP = 5000.
  await buy(tenant, e1.event.slug, vip.id, at(-1, 23.5), ['e@example.test']);
  // Day -2: 3 × Floor = 6000 less 10% = 5400; A@EXAMPLE.TEST is a@example.test again, at another event.
  await buy(tenant, e2.event.slug, e2.ticketType.id, at(-2, 10), ['A@Example.Test', 'c@example.test', 'd@example.test'], { coupon_code: 'SAVE10' });
  // 500 of the first order goes back (today, in real time).
  expectStatus(await t.http().post(`/v1/orders/${first.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', `r-${first.id}`).send({ amount: 500 }), 201);
  // Three visitors read Jazz Night, one of them twice: 3 views, 3 unique visitors (today).
  for (const agent of ['ua-1', 'ua-2', 'ua-3', 'ua-1']) {
    expectStatus(await t.http().get(`/v1/events/${e1.event.slug}`).set(pk(tenant)).set('User-Agent', agent), 200);
  }
  await writePageViews(t);
  // One of Jazz Night's three tickets is scanned in at the door, twice (an exit between): it counts once.
  const ticket = await t.ctx.db.selectFrom('tickets').select('id').where('order_id', '=', first.id).orderBy('position').executeTakeFirstOrThrow();
  const secret = await secretOf(t, ticket.id);
  for (const type of ['entry', 'exit', 'entry']) {
    const scan = expectStatus(await t.http().post(`/v1/organizer/events/${e1.event.slug}/checkins`).set(sk(tenant)).send({ secret, type, force: true }), 200);
    expect(scan.data.status).toBe('ok');
  }
  setClock(at(0, 12));
  return { tenant, org, e1, e2 };
}

const get = (path: string, headers: Record<string, string>, query: Record<string, string> = {}) => t.http().get(path).query(query).set(headers);

describe('organizer analytics', () => {
  it('answers the worked figures: periods, compare, timezone days, refunds, coupons, audience, utilization', async () => {
    const { tenant, org, e1, e2 } = await seed();
    const owner = sk(tenant);
    const q = (period: string, extra: Record<string, string> = {}) => ({ organization: org.id, period, ...extra });

    // 2d = days -1 and 0: orders 1 and 2. Revenue 2000 + 5000 - 500 = 6500; the 2d before (days -3, -2): 5400.
    const overview = expectStatus(await get('/v1/organizer/analytics', owner, q('2d', { compare: 'true' })), 200);
    expect(overview.data.stats).toEqual({
      total_revenue: { value: 65, currency: 'KES', change_percentage: 20.4 }, // (6500 - 5400) / 5400
      tickets_sold: { value: 3, change_percentage: 0 }, // 3 against 3
      page_views: { value: 3, change_percentage: null }, // nothing before
      conversion_rate: { value: 66.7, change_percentage: null }, // 2 paid orders / 3 visitors
    });
    expect(overview.data.sales_trend).toEqual({ labels: [dateOf(-1), dateOf(0)], data: [50, 15] });
    expect(overview.data.traffic_sources).toEqual([]);
    expect(overview.data.top_events).toEqual([{ id: e1.event.id, name: 'Jazz Night', tickets_sold: 3, revenue: 65, conversion_rate: 67 }]);
    expect(overview.meta).toMatchObject({ period: '2d', cache_ttl_seconds: 300, organization: org.id });
    // Without compare, no change is given.
    const plain = expectStatus(await get('/v1/organizer/analytics', owner, q('2d')), 200);
    expect(plain.data.stats.tickets_sold).toEqual({ value: 3, change_percentage: null });

    // 1d is today only: the 00:30 sale belongs to today in Nairobi although it is yesterday in UTC.
    const tickets1 = expectStatus(await get('/v1/organizer/analytics/tickets', owner, q('1d')), 200);
    expect(tickets1.data).toEqual([{ date: dateOf(0), tickets_sold: 2 }]);
    expect(tickets1.meta).toMatchObject({ total_tickets: 2, range: { from: dateOf(0), to: dateOf(0), timezone: 'Africa/Nairobi' } });
    const tickets3 = expectStatus(await get('/v1/organizer/analytics/tickets', owner, q('3d')), 200);
    expect(tickets3.data).toEqual([
      { date: dateOf(-2), tickets_sold: 3 },
      { date: dateOf(-1), tickets_sold: 1 },
      { date: dateOf(0), tickets_sold: 2 },
    ]);
    const onlyE2 = expectStatus(await get('/v1/organizer/analytics/tickets', owner, q('3d', { event_id: e2.event.id })), 200);
    expect(onlyE2.meta.total_tickets).toBe(3);

    const revenue = expectStatus(await get('/v1/organizer/analytics/revenue', owner, q('3d')), 200);
    expect(revenue.data).toEqual([
      { date: dateOf(-2), revenue: 54, currency: 'KES' },
      { date: dateOf(-1), revenue: 50, currency: 'KES' },
      { date: dateOf(0), revenue: 15, currency: 'KES' },
    ]);
    expect(revenue.meta.total_revenue).toBe(119);

    // Jazz Night: 3 valid tickets of 100 seats, 1 checked in.
    const events = expectStatus(await get('/v1/organizer/analytics/events', owner, q('3d')), 200);
    expect(events.data).toEqual([
      { event_id: e1.event.id, event_name: 'Jazz Night', slug: e1.event.slug, status: 'published', tickets_sold: 3, capacity: 100, utilization_pct: 3, revenue: 65, currency: 'KES', checkin_rate_pct: 33.3 },
      { event_id: e2.event.id, event_name: 'Poetry Slam', slug: e2.event.slug, status: 'published', tickets_sold: 3, capacity: null, utilization_pct: null, revenue: 54, currency: 'KES', checkin_rate_pct: 0 },
    ]);
    expect(events.meta).toMatchObject({ total_events: 2, limit: 20, sort: 'tickets_sold' });

    // 6 tickets: Floor 3 (50%), GA 2 (33.3%), VIP 1 (16.7%); 12400 / 6 = 2066.67; a, b, c, d, e with a at both events.
    const audience = expectStatus(await get('/v1/organizer/analytics/audience', owner, q('3d')), 200);
    expect(audience.data).toEqual({
      ticket_types: [
        { name: 'Floor', count: 3, percentage: 50 },
        { name: 'GA', count: 2, percentage: 33.3 },
        { name: 'VIP', count: 1, percentage: 16.7 },
      ],
      avg_ticket_price: 20.67,
      currency: 'KES',
      total_unique_attendees: 5,
      repeat_attendees: 1,
    });

    const conversions = expectStatus(await get('/v1/organizer/analytics/conversions', owner, q('3d')), 200);
    expect(conversions.data).toEqual({
      page_views: 3,
      unique_visitors: 3,
      orders: 3,
      conversion_rate_pct: 100,
      coupon_usage: { total_uses: 1, total_discount: 6, orders_with_coupon: 1, top_coupons: [{ code: 'SAVE10', uses: 1, discount_total: 6 }] },
    });
    const e1Conversions = expectStatus(await get('/v1/organizer/analytics/conversions', owner, q('3d', { event_id: e1.event.id })), 200);
    expect(e1Conversions.data).toMatchObject({ orders: 2, conversion_rate_pct: 66.7, coupon_usage: { total_uses: 0, top_coupons: [] } });
  });

  it('takes a full refund out of tickets sold and puts it in revenue on its day', async () => {
    const tenant = await roomyTenant();
    const org = await makeOrganization(t, tenant);
    const { event, ticketType } = await makePublishedEvent(t, tenant, org.id, {}, { price: 3000 });
    const order = await buy(tenant, event.slug, ticketType.id, at(-1, 12), ['x@example.test']);
    setClock(at(0, 12));
    expectStatus(await t.http().post(`/v1/orders/${order.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', `r-${order.id}`).send({}), 201);
    const overview = expectStatus(await get('/v1/organizer/analytics', sk(tenant), { organization: org.id, period: '7d' }), 200);
    expect(overview.data.stats.tickets_sold.value).toBe(0);
    expect(overview.data.stats.total_revenue.value).toBe(0);
    const revenue = expectStatus(await get('/v1/organizer/analytics/revenue', sk(tenant), { organization: org.id, period: '7d' }), 200);
    expect(revenue.data).toEqual([
      { date: dateOf(-1), revenue: 30, currency: 'KES' },
      { date: dateOf(0), revenue: -30, currency: 'KES' },
    ]);
  });

  it('counts many paid orders in one count_paid_orders call as their payments counted them one by one', async () => {
    const { org } = await seed();
    const db = t.ctx.db;
    const snapshot = async () => ({
      // The refund's `refunded` is counted apart (countRefund), not by count_paid_orders.
      sales: (await sql`select event_id, ticket_type_id, day::text, tickets_sold, orders_paid, gross, coupon_orders, coupon_discount
        from event_daily_sales where organization_id = ${org.id} and (tickets_sold, orders_paid, gross) <> (0, 0, 0) order by 1, 2, 3`.execute(db)).rows,
      coupons: (await sql`select coupon_id, day::text, uses, discount from coupon_daily_uses where organization_id = ${org.id} order by 1, 2`.execute(db)).rows,
      people: (await sql`select attendee_key, event_id, day::text from organization_attendee_events where organization_id = ${org.id} order by 1, 2`.execute(db)).rows,
    });
    const oneByOne = await snapshot();
    expect(oneByOne.sales).toHaveLength(3);
    expect(oneByOne.people).toHaveLength(6);
    for (const table of ['event_daily_sales', 'coupon_daily_uses', 'organization_attendee_events']) {
      await sql`delete from ${sql.table(table)} where organization_id = ${org.id}`.execute(db);
    }
    await sql`select count_paid_orders(array(select id from orders where organization_id = ${org.id}))`.execute(db);
    expect(await snapshot()).toEqual(oneByOne);
  });

  it('keeps an answer for five minutes per organization, period and compare', async () => {
    const tenant = await roomyTenant();
    const org = await makeOrganization(t, tenant);
    const { event, ticketType } = await makePublishedEvent(t, tenant, org.id, {}, { price: 1000 });
    await buy(tenant, event.slug, ticketType.id, at(0, 9), ['k@example.test']);
    setClock(at(0, 12));
    const read = async (query: Record<string, string>) =>
      expectStatus(await get('/v1/organizer/analytics', sk(tenant), { organization: org.id, ...query }), 200).data.stats.tickets_sold.value;
    expect(await read({ period: '7d' })).toBe(1);
    await buy(tenant, event.slug, ticketType.id, at(0, 10), ['l@example.test']);
    setClock(at(0, 12));
    expect(await read({ period: '7d' })).toBe(1);
    expect(await read({ period: '7d', compare: 'true' })).toBe(2);
    expect(await read({ period: '8d' })).toBe(2);
    // A kept answer is sent as the very bytes and headers of the first, for a key and for a member.
    const owner = await signedInMember(t, tenant, org.id, 'owner');
    for (const [who, query] of [[sk(tenant), { organization: org.id, period: '9d' }], [owner, { period: '9d' }]] as const) {
      const first = await get('/v1/organizer/analytics/events', who, query);
      const kept = await get('/v1/organizer/analytics/events', who, query);
      expect([first.status, kept.status]).toEqual([200, 200]);
      expect(kept.text).toBe(first.text);
      expect([kept.headers['content-type'], kept.headers['content-length']]).toEqual(['application/json; charset=utf-8', String(Buffer.byteLength(first.text))]);
    }
    // A kept answer is the tenant's and environment's: another tenant's key naming the organization still gets 422.
    const other = await roomyTenant();
    expectError(await get('/v1/organizer/analytics', sk(other), { organization: org.id, period: '7d' }), 422, 'validation_failed');
  });

  it('shows revenue only to owners, admins, tenant owners and secret keys', async () => {
    const { tenant, org } = await seed();
    const restricted = bearer(expectStatus(await t.http().post('/v1/keys').set(sk(tenant)).send({ type: 'restricted', scopes: ['events:read'] }), 201).data.secret);
    const owner = await signedInMember(t, tenant, org.id, 'owner');
    const admin = await signedInMember(t, tenant, org.id, 'admin');
    const manager = await signedInMember(t, tenant, org.id, 'manager');
    const viewer = await signedInMember(t, tenant, org.id, 'viewer');
    const finance = await signedInMember(t, tenant, org.id, 'finance');
    for (const [who, sees] of [[owner, true], [admin, true], [manager, false], [viewer, false], [finance, false], [restricted, false]] as const) {
      const query: Record<string, string> = who === restricted ? { organization: org.id } : {};
      const overview = expectStatus(await get('/v1/organizer/analytics', who, query), 200).data;
      expect('total_revenue' in overview.stats).toBe(sees);
      expect('sales_trend' in overview).toBe(sees);
      expect(overview.top_events.every((e: object) => 'revenue' in e)).toBe(sees);
      expect(overview.stats.tickets_sold.value).toBe(6);
      const events = expectStatus(await get('/v1/organizer/analytics/events', who, query), 200).data;
      expect(events.every((e: object) => 'revenue' in e)).toBe(sees);
      const revenue = await get('/v1/organizer/analytics/revenue', who, query);
      if (sees) expectStatus(revenue, 200);
      else expectError(revenue, 403, 'missing_permission');
    }
    // Tenant staff: owners see revenue, viewers do not; both name the organization.
    for (const [role, sees] of [['owner', true], ['viewer', false]] as const) {
      const phone = newPhone();
      expectStatus(await t.http().post('/v1/members').set(sk(tenant)).send({ phone, role }), 201);
      advance(t, 61_000);
      const staff = { ...bearer((await signInByPhone(t, tenant, phone)).access_token), 'X-Tenant-Code': tenant.tenant.code };
      const overview = expectStatus(await get('/v1/organizer/analytics', staff, { organization: org.id }), 200).data;
      expect('total_revenue' in overview.stats).toBe(sees);
    }
  });

  it('refuses bad periods (422), a missing organization (422), strangers (403) and anonymous callers (401)', async () => {
    const tenant = await roomyTenant();
    const org = await makeOrganization(t, tenant);
    const other = await makeOrganization(t, tenant);
    for (const period of ['0d', '366d', '30', '30x', 'd', '1000d', '-1d', '7w']) {
      expectError(await get('/v1/organizer/analytics', sk(tenant), { organization: org.id, period }), 422, 'validation_failed');
    }
    expectError(await get('/v1/organizer/analytics', sk(tenant), { organization: org.id, compare: 'maybe' }), 422, 'validation_failed');
    expectStatus(await get('/v1/organizer/analytics', sk(tenant), { organization: org.id, period: '365d' }), 200);
    expectError(await get('/v1/organizer/analytics/audience', sk(tenant)), 422, 'validation_failed', { param: 'organization' });
    expectError(await get('/v1/organizer/analytics/tickets', sk(tenant), { organization: org.id, event_id: '00000000-0000-4000-8000-000000000000' }), 404, 'resource_not_found');
    const viewer = await signedInMember(t, tenant, org.id, 'viewer');
    expectStatus(await get('/v1/organizer/analytics', viewer), 200);
    expectError(await get('/v1/organizer/analytics', viewer, { organization: other.id }), 403, 'missing_permission');
    for (const path of ['', '/revenue', '/tickets', '/events', '/audience', '/conversions']) {
      expectError(await t.http().get(`/v1/organizer/analytics${path}`).set('X-Tenant-Code', tenant.tenant.code), 401, 'api_key_missing');
      expectError(await t.http().get(`/v1/organizer/analytics${path}`), 401, 'api_key_missing');
    }
  });
});

export type { TestServer };
