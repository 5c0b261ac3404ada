import { sql } from 'kysely';
import type { Executor } from '../../../db/database';
import type { Window } from './analytics-period';

/** What every read filters on: the organization, optionally one of its events, and the promoter of the sales. */
export interface Filter {
  organizationId: string;
  eventId?: string | undefined;
  /** Sales of the orders attributed to this `prm_` only; `timezone` (the organization's) makes their days. */
  promoterId?: string | undefined;
  timezone?: string;
}

/**
 * The daily sales the reads sum, as `alias`: the rollup, or, for one promoter, the same columns made from that
 * promoter's paid ticket orders (the rollups have no promoter; an organization's attributed orders are few).
 * A fully refunded order gives its tickets and its order back, as the rollup does. `gross` and `refunded` are the
 * tickets' money; `add_ons_gross` and `add_ons_refunded` a booking's add-ons (product lines and their shipping).
 */
function sales(f: Filter, alias = 'event_daily_sales') {
  const as = sql.raw(alias);
  if (!f.promoterId) return sql`event_daily_sales as ${as}`;
  const kept = sql`case when o.status = 'refunded' then 0 else 1 end`;
  return sql`(
    select organization_id, event_id, ticket_type_id, day, tickets_sold, orders_paid, amount_paid - add_ons_gross as gross,
      amount_refunded - add_ons_refunded as refunded, coupon_orders, add_ons_gross, add_ons_refunded
    from (
      select o.organization_id, o.event_id, o.ticket_type_id, (o.paid_at at time zone ${f.timezone ?? 'UTC'})::date as day,
        o.seats * ${kept} as tickets_sold, ${kept} as orders_paid, o.amount_paid, o.amount_refunded,
        case when o.coupon_id is null then 0 else ${kept} end as coupon_orders,
        least(coalesce(o.amount_add_ons, 0), o.amount_paid) as add_ons_gross,
        o.amount_add_ons_refunded as add_ons_refunded
      from orders o
      where o.organization_id = ${f.organizationId} and o.kind = 'ticket' and o.paid_at is not null
        and o.status in ('paid', 'partially_refunded', 'refunded') and o.attribution->>'promoter' = ${f.promoterId}
    ) p
  ) as ${as}`;
}

const onEvent = (f: Filter) => (f.eventId ? sql`and event_id = ${f.eventId}::uuid` : sql``);
const inWindow = (w: Window) => sql`day between ${w.from}::date and ${w.to}::date`;
const num = (v: unknown) => Number(v ?? 0);

export interface SalesTotals {
  tickets: number;
  orders: number;
  revenue: number;
  gross: number;
  couponOrders: number;
  /** A booking's add-ons: paid minus refunded. */
  addOnsRevenue: number;
}

export async function salesTotals(db: Executor, f: Filter, w: Window): Promise<SalesTotals> {
  const { rows } = await sql<Record<string, string>>`
    select sum(tickets_sold) as tickets, sum(orders_paid) as orders, sum(gross - refunded) as revenue, sum(gross) as gross,
      sum(coupon_orders) as coupon_orders, sum(add_ons_gross - add_ons_refunded) as add_ons
    from ${sales(f)} where organization_id = ${f.organizationId} and ${inWindow(w)} ${onEvent(f)}`.execute(db);
  const r = rows[0]!;
  return {
    tickets: num(r.tickets),
    orders: num(r.orders),
    revenue: num(r.revenue),
    gross: num(r.gross),
    couponOrders: num(r.coupon_orders),
    addOnsRevenue: num(r.add_ons),
  };
}

/**
 * Page views, and the distinct visitors of the window: a person who came back on three days is one visitor of the
 * week, not three (the daily rollups count each day's visitors; summing them counted returns again).
 */
export async function viewTotals(db: Executor, f: Filter, w: Window): Promise<{ views: number; visitors: number }> {
  const { rows } = await sql<Record<string, string>>`
    select
      (select sum(page_views) from event_daily_views where organization_id = ${f.organizationId} and ${inWindow(w)} ${onEvent(f)}) as views,
      (select count(distinct d.visitor_hash) from event_day_visitors d join ticketed_events e on e.id = d.event_id
        where e.organization_id = ${f.organizationId} and d.${inWindow(w)} ${f.eventId ? sql`and d.event_id = ${f.eventId}::uuid` : sql``}) as visitors`.execute(db);
  return { views: num(rows[0]!.views), visitors: num(rows[0]!.visitors) };
}

/** The sources with the most page views in the window, most first (ties by name). */
export async function topTrafficSources(db: Executor, f: Filter, w: Window, limit: number): Promise<string[]> {
  const { rows } = await sql<{ source: string }>`
    select source from event_daily_sources where organization_id = ${f.organizationId} and ${inWindow(w)} ${onEvent(f)}
    group by source order by sum(page_views) desc, source limit ${limit}`.execute(db);
  return rows.map((r) => r.source);
}

/** Per day: tickets sold, ticket revenue (gross minus refunds) and add-on revenue. */
export async function salesByDay(db: Executor, f: Filter, w: Window) {
  const { rows } = await sql<{ day: string; tickets: string; revenue: string; add_ons: string }>`
    select to_char(day, 'YYYY-MM-DD') as day, sum(tickets_sold) as tickets, sum(gross - refunded) as revenue,
      sum(add_ons_gross - add_ons_refunded) as add_ons
    from ${sales(f)} where organization_id = ${f.organizationId} and ${inWindow(w)} ${onEvent(f)}
    group by day order by day`.execute(db);
  return rows.map((r) => ({ day: r.day, tickets: num(r.tickets), revenue: num(r.revenue), addOnsRevenue: num(r.add_ons) }));
}

/** Each event of the organization with its period's sales and views, its sold seats, capacity and check-ins. */
export async function eventFigures(db: Executor, f: Filter, w: Window) {
  const { rows } = await sql<Record<string, string | number | null>>`
    select e.id, e.name, e.slug, e.status, e.capacity, e.currency,
      coalesce(s.tickets, 0) as tickets, coalesce(s.orders, 0) as orders, coalesce(s.revenue, 0) as revenue,
      coalesce(s.add_ons, 0) as add_ons,
      coalesce(v.visitors, 0) as visitors, coalesce(b.sold, 0) as valid_tickets, coalesce(c.tickets_checked_in, 0) as checked_in
    from ticketed_events e
    left join (
      select event_id, sum(tickets_sold) as tickets, sum(orders_paid) as orders, sum(gross - refunded) as revenue,
        sum(add_ons_gross - add_ons_refunded) as add_ons
      from ${sales(f)} where organization_id = ${f.organizationId} and ${inWindow(w)} group by event_id
    ) s on s.event_id = e.id
    left join (
      select d.event_id, count(distinct d.visitor_hash) as visitors
      from event_day_visitors d join ticketed_events de on de.id = d.event_id
      where de.organization_id = ${f.organizationId} and d.${inWindow(w)} group by d.event_id
    ) v on v.event_id = e.id
    left join capacity_buckets b on b.id = 'e:' || e.id::text
    left join lateral (select sum(tickets_checked_in) as tickets_checked_in from event_checkin_counts where event_id = e.id) c on true
    where e.organization_id = ${f.organizationId} and e.status <> 'draft'
    order by coalesce(s.tickets, 0) desc, e.name, e.id`.execute(db);
  return rows.map((r) => ({
    id: String(r.id),
    name: String(r.name),
    slug: String(r.slug),
    status: String(r.status),
    currency: String(r.currency),
    capacity: r.capacity === null ? null : num(r.capacity),
    tickets: num(r.tickets),
    orders: num(r.orders),
    revenue: num(r.revenue),
    addOnsRevenue: num(r.add_ons),
    visitors: num(r.visitors),
    validTickets: num(r.valid_tickets),
    checkedIn: num(r.checked_in),
  }));
}

export async function ticketTypeShares(db: Executor, f: Filter, w: Window) {
  const { rows } = await sql<{ name: string; count: string }>`
    select t.name, sum(s.tickets_sold) as count
    from ${sales(f, 's')} join ticket_types t on t.id = s.ticket_type_id
    where s.organization_id = ${f.organizationId} and ${inWindow(w)}
    group by t.id, t.name having sum(s.tickets_sold) > 0 order by count desc, t.name`.execute(db);
  return rows.map((r) => ({ name: r.name, count: num(r.count) }));
}

/** People who bought in the window; repeat ones hold tickets to two or more of the organization's events. */
export async function attendeeCounts(db: Executor, f: Filter, w: Window) {
  const { rows } = await sql<{ total: string; repeat: string }>`
    select count(*) as total, count(*) filter (where events >= 2) as repeat from (
      select attendee_key, count(*) as events from organization_attendee_events
      where organization_id = ${f.organizationId} and attendee_key in (
        select attendee_key from organization_attendee_events where organization_id = ${f.organizationId} and ${inWindow(w)}
      )
      group by attendee_key
    ) a`.execute(db);
  return { unique: num(rows[0]!.total), repeat: num(rows[0]!.repeat) };
}

export async function couponUses(db: Executor, f: Filter, w: Window) {
  if (f.promoterId) return promoterCouponUses(db, f, w);
  const { rows } = await sql<{ code: string; uses: string; discount: string }>`
    select c.code, sum(u.uses) as uses, sum(u.discount) as discount
    from coupon_daily_uses u join coupons c on c.id = u.coupon_id
    where u.organization_id = ${f.organizationId} and ${inWindow(w)} ${f.eventId ? sql`and u.event_id = ${f.eventId}::uuid` : sql``}
    group by c.id, c.code having sum(u.uses) > 0 order by uses desc, c.code`.execute(db);
  return rows.map((r) => ({ code: r.code, uses: num(r.uses), discount: num(r.discount) }));
}

/** The coupons used by one promoter's paid ticket orders (the coupon rollup has no promoter). */
async function promoterCouponUses(db: Executor, f: Filter, w: Window) {
  const { rows } = await sql<{ code: string; uses: string; discount: string }>`
    select c.code, count(*) as uses, sum(o.amount_discount) as discount
    from orders o join coupons c on c.id = o.coupon_id
    where o.organization_id = ${f.organizationId} and o.kind = 'ticket' and o.status in ('paid', 'partially_refunded')
      and o.attribution->>'promoter' = ${f.promoterId!}
      and (o.paid_at at time zone ${f.timezone ?? 'UTC'})::date between ${w.from}::date and ${w.to}::date
      ${f.eventId ? sql`and o.event_id = ${f.eventId}::uuid` : sql``}
    group by c.id, c.code order by uses desc, c.code`.execute(db);
  return rows.map((r) => ({ code: r.code, uses: num(r.uses), discount: num(r.discount) }));
}

export async function eventOfOrganization(db: Executor, organizationId: string, eventId: string): Promise<boolean> {
  const row = await db.selectFrom('ticketed_events').select('id').where('id', '=', eventId).where('organization_id', '=', organizationId).executeTakeFirst();
  return row !== undefined;
}
