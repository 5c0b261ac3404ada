import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { makeOrganization, makePublishedEvent, sk } from './catalogue-fixtures';
import { analyticsKit } from './analytics-fixtures';
import { pk } from './booking-fixtures';
import { writePageViews } from '../kit/page-views';
import { countPageView, trafficSourceOf } from '../../src/modules/ticketing/public/page-views';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
const { roomyTenant, at, dateOf, setClock, buy, seed, get } = analyticsKit(t);

describe('organizer analytics figures', () => {
  it('answers the worked figures: periods, compare, timezone days, refunds, coupons, audience, utilization', async () => {
    const { tenant, org, e1, e2 } = await seed();
    const owner = sk(tenant);
    const q = (period: string, extra: Record<string, string> = {}) => ({ organization: org.id, period, ...extra });

    // 2d = days -1 and 0: orders 1 and 2. Revenue 2000 + 5000 - 500 = 6500; the 2d before (days -3, -2): 5400.
    const overview = expectStatus(await get('/v1/organizer/analytics', owner, q('2d', { compare: 'true' })), 200);
    expect(overview.data.stats).toEqual({
      total_revenue: { value: 65, currency: 'KES', change_percentage: 20.4 }, // (6500 - 5400) / 5400
      add_on_revenue: { value: 0, currency: 'KES', change_percentage: null },
      tickets_sold: { value: 3, change_percentage: 0 }, // 3 against 3
      page_views: { value: 3, change_percentage: null }, // nothing before
      conversion_rate: { value: 66.7, change_percentage: null }, // 2 paid orders / 3 visitors
    });
    expect(overview.data.sales_trend).toEqual({ labels: [dateOf(-1), dateOf(0)], data: [50, 15] });
    // The three views named no source.
    expect(overview.data.traffic_sources).toEqual(['direct']);
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
      { date: dateOf(-2), revenue: 54, add_on_revenue: 0, currency: 'KES' },
      { date: dateOf(-1), revenue: 50, add_on_revenue: 0, currency: 'KES' },
      { date: dateOf(0), revenue: 15, add_on_revenue: 0, currency: 'KES' },
    ]);
    expect(revenue.meta.total_revenue).toBe(119);

    // Jazz Night: 3 valid tickets of 100 seats, 1 checked in.
    const events = expectStatus(await get('/v1/organizer/analytics/events', owner, q('3d')), 200);
    expect(events.data).toEqual([
      { event_id: e1.event.id, event_name: 'Jazz Night', slug: e1.event.slug, status: 'published', tickets_sold: 3, capacity: 100, utilization_pct: 3, revenue: 65, add_on_revenue: 0, currency: 'KES', checkin_rate_pct: 33.3 },
      { event_id: e2.event.id, event_name: 'Poetry Slam', slug: e2.event.slug, status: 'published', tickets_sold: 3, capacity: null, utilization_pct: null, revenue: 54, add_on_revenue: 0, currency: 'KES', checkin_rate_pct: 0 },
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

  it('ranks the traffic sources the public reads name, per organization and period', async () => {
    const tenant = await roomyTenant();
    const org = await makeOrganization(t, tenant, { timezone: 'Africa/Nairobi' });
    const other = await makeOrganization(t, tenant, { timezone: 'Africa/Nairobi' });
    const e1 = await makePublishedEvent(t, tenant, org.id, { name: 'Jazz Night' });
    const e2 = await makePublishedEvent(t, tenant, org.id, { name: 'Poetry Slam' });
    const e3 = await makePublishedEvent(t, tenant, other.id, { name: 'Elsewhere' });
    const long = 'a'.repeat(150);
    const read = (slug: string, agent: string, source?: string) =>
      t.http().get(`/v1/events/${slug}`).query(source === undefined ? {} : { source }).set(pk(tenant)).set('User-Agent', agent);
    const views: Array<[string, string, string | undefined]> = [
      [e1.event.slug, 'ua-1', 'instagram'],
      [e1.event.slug, 'ua-2', ' Instagram '],
      [e1.event.slug, 'ua-3', 'https://www.Google.com/search?q=jazz'],
      [e1.event.slug, 'ua-4', undefined],
      [e1.event.slug, 'ua-5', ' \t '],
      // The same visitor within the window: not a view, so not a source either.
      [e1.event.slug, 'ua-1', 'tiktok'],
      [e2.event.slug, 'ua-6', 'x.com'],
      [e2.event.slug, 'ua-7', long],
      [e2.event.slug, 'ua-8', 'News\nLetter'],
      // Another organization's views are not this one's sources.
      [e3.event.slug, 'ua-9', 'facebook'],
      [e3.event.slug, 'ua-10', 'facebook'],
      [e3.event.slug, 'ua-11', 'facebook'],
    ];
    for (const [slug, agent, source] of views) expectStatus(await read(slug, agent, source), 200);
    // Three views three days ago, from the radio.
    for (const agent of ['old-1', 'old-2', 'old-3']) {
      countPageView(t.ctx, { ...e1.event, tenant_id: tenant.tenant.id, livemode: false, organization_id: org.id } as never, { ip: '10.0.0.9', userAgent: agent, source: 'Radio' }, at(-3, 12));
    }
    await writePageViews(t);
    const raw = await t.ctx.db.selectFrom('event_page_views').select(['visitor_hash', 'source']).where('event_id', '=', e1.event.id).orderBy('id').execute();
    // The batch writes its rows in no promised order (PostgreSQL 15 and 17 differ): the sources, as a multiset.
    const sorted = (list: (string | null)[]) => [...list].sort((a, b) => String(a).localeCompare(String(b)));
    expect(sorted(raw.map((r) => r.source))).toEqual(sorted(['instagram', 'instagram', 'google.com', null, null, 'radio', 'radio', 'radio']));

    setClock(new Date());
    const sources = async (organization: string, period: string) =>
      expectStatus(await get('/v1/organizer/analytics', sk(tenant), { organization, period }), 200).data.traffic_sources;
    // Today: direct 2, instagram 2, then one view each by name; five at most.
    expect(await sources(org.id, '1d')).toEqual(['direct', 'instagram', 'a'.repeat(100), 'google.com', 'news letter']);
    expect(await sources(org.id, '7d')).toEqual(['radio', 'direct', 'instagram', 'a'.repeat(100), 'google.com']);
    expect(await sources(other.id, '1d')).toEqual(['facebook']);

    // A source longer than 255 characters is refused.
    const refused = expectStatus(await read(e2.event.slug, 'ua-12', 'b'.repeat(256)), 422);
    expect(refused.error).toMatchObject({ code: 'validation_failed', param: 'source' });
  });

  it('counts a visitor who came back on other days, or to another event, once over the period', async () => {
    const tenant = await roomyTenant();
    const org = await makeOrganization(t, tenant, { timezone: 'Africa/Nairobi' });
    const e1 = await makePublishedEvent(t, tenant, org.id, { name: 'Jazz Night' });
    const e2 = await makePublishedEvent(t, tenant, org.id, { name: 'Poetry Slam' });
    const row = (e: typeof e1) => ({ ...e.event, tenant_id: tenant.tenant.id, livemode: false, organization_id: org.id }) as never;
    // Each view written on its own: views of one batch count a visitor once per event already.
    const view = async (e: typeof e1, agent: string, day: number) => {
      countPageView(t.ctx, row(e), { ip: '10.0.0.7', userAgent: agent, source: undefined }, at(day, 12));
      await writePageViews(t);
    };
    // The regular: Jazz Night on three days and Poetry Slam today; a newcomer once today.
    for (const day of [-2, -1, 0]) await view(e1, 'regular', day);
    await view(e2, 'regular', 0);
    await view(e1, 'newcomer', 0);
    setClock(new Date());
    const conversions = async (extra: Record<string, string> = {}) =>
      expectStatus(await get('/v1/organizer/analytics/conversions', sk(tenant), { organization: org.id, period: '3d', ...extra }), 200).data;
    expect(await conversions()).toMatchObject({ page_views: 5, unique_visitors: 2 });
    expect(await conversions({ event_id: e1.event.id })).toMatchObject({ page_views: 4, unique_visitors: 2 });
    expect(await conversions({ event_id: e2.event.id })).toMatchObject({ page_views: 1, unique_visitors: 1 });
  });

  it('counts a source by its host, in lowercase, without www., control characters as one space', () => {
    expect(trafficSourceOf(undefined)).toBeNull();
    expect(trafficSourceOf('   ')).toBeNull();
    expect(trafficSourceOf('http://')).toBeNull();
    expect(trafficSourceOf('HTTPS://WWW.Example.COM:8443/path?q=1')).toBe('example.com');
    expect(trafficSourceOf('http://m.facebook.com/')).toBe('m.facebook.com');
    expect(trafficSourceOf('Face\tBook\u0000 Ads')).toBe('face book ads');
    expect(trafficSourceOf('www.radio')).toBe('radio');
    expect(trafficSourceOf('Ω'.repeat(120))).toBe('ω'.repeat(100));
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
      { date: dateOf(-1), revenue: 30, add_on_revenue: 0, currency: 'KES' },
      { date: dateOf(0), revenue: -30, add_on_revenue: 0, currency: 'KES' },
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

});
