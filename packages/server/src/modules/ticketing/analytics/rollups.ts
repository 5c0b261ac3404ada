import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../../db/database';
import type { OrderRow } from '../orders/order-rows.service';

/**
 * The daily rollups the organizer analytics read, kept by the writes they count, in the writer's transaction.
 * Each is one upsert that adds to the day's row (`x = x + excluded.x`), so concurrent writers never lose a count
 * and no one reads-then-writes. A day is the organization's calendar day at the moment of the write.
 */
export const dayIn = (organizationId: string, at: Date): RawBuilder<string> =>
  sql`(${at}::timestamptz at time zone coalesce((select timezone from organizations where id = ${organizationId}), 'UTC'))::date`;

interface SaleDelta {
  tickets: number;
  orders: number;
  gross: number;
  refunded: number;
  couponOrders: number;
  couponDiscount: number;
  /** Of `refunded`, what went back for a booking's add-ons (counted apart from the tickets' money). */
  addOnsRefunded?: number;
}

const salesUpsert = (order: OrderRow, day: RawBuilder<string>, d: SaleDelta) =>
  sql`
    insert into event_daily_sales as s (tenant_id, livemode, organization_id, event_id, ticket_type_id, day,
      tickets_sold, orders_paid, gross, refunded, coupon_orders, coupon_discount, add_ons_refunded)
    values (${order.tenant_id}, ${order.livemode}, ${order.organization_id}, ${order.event_id}::uuid, ${order.ticket_type_id}::uuid, ${day},
      ${d.tickets}, ${d.orders}, ${d.gross}, ${d.refunded - (d.addOnsRefunded ?? 0)}, ${d.couponOrders}, ${d.couponDiscount}, ${d.addOnsRefunded ?? 0})
    on conflict (event_id, ticket_type_id, day) do update set
      tickets_sold = s.tickets_sold + excluded.tickets_sold, orders_paid = s.orders_paid + excluded.orders_paid,
      gross = s.gross + excluded.gross, refunded = s.refunded + excluded.refunded,
      coupon_orders = s.coupon_orders + excluded.coupon_orders, coupon_discount = s.coupon_discount + excluded.coupon_discount,
      add_ons_refunded = s.add_ons_refunded + excluded.add_ons_refunded`;

async function addToSales(db: Executor, order: OrderRow, day: RawBuilder<string>, d: SaleDelta) {
  await salesUpsert(order, day, d).execute(db);
}

const couponUseUpsert = (order: OrderRow, day: RawBuilder<string>, uses: number) =>
  sql`
    insert into coupon_daily_uses as c (organization_id, event_id, coupon_id, day, uses, discount)
    values (${order.organization_id}, ${order.event_id}::uuid, ${order.coupon_id}::uuid, ${day}, ${uses}, ${uses * order.amount_discount})
    on conflict (coupon_id, day) do update set uses = c.uses + excluded.uses, discount = c.discount + excluded.discount`;

async function addCouponUse(db: Executor, order: OrderRow, day: RawBuilder<string>, uses: number) {
  await couponUseUpsert(order, day, uses).execute(db);
}

/**
 * Paid orders (comps are not counted): their tickets, their money (a booking's add-ons apart from its tickets'),
 * their coupons, and who each was for (its valid tickets' people, else its buyer). The database function
 * `count_paid_orders` (migrations 2026_11_25_50, 2026_12_05_20) does the
 * counting, the same for one order as for many written at once. `also` (more writes of the same orders) ride in
 * the same statement; a day's row is shared by every payment of the ticket type, so it is locked until the commit.
 */
export async function countPaidOrders(db: Executor, orders: readonly OrderRow[], also: readonly RawBuilder<unknown>[] = []): Promise<void> {
  const counted = orders.filter((o) => !o.comp && o.paid_at).map((o) => o.id);
  if (counted.length === 0) {
    for (const write of also) await write.execute(db);
    return;
  }
  const count = sql`select count_paid_orders(${counted}::text[])`;
  const ctes = also.map((write, i) => sql`${sql.raw(`w${i}`)} as (${write})`);
  await (ctes.length ? sql`with ${sql.join(ctes)} ${count}` : count).execute(db);
}

/**
 * A sale given back (a full refund, a cancellation after payment): its tickets, order and coupon use leave the
 * day it was paid on. The money stays in `gross`; the refund is counted as `refunded` on its own day.
 */
export async function uncountSale(db: Executor, before: OrderRow): Promise<void> {
  if (before.comp || !before.paid_at) return;
  const day = dayIn(before.organization_id, before.paid_at);
  const coupon = before.coupon_id !== null && before.coupon_state === 'redeemed';
  await addToSales(db, before, day, {
    tickets: -before.seats,
    orders: -1,
    gross: 0,
    refunded: 0,
    couponOrders: coupon ? -1 : 0,
    couponDiscount: coupon ? -before.amount_discount : 0,
  });
  if (coupon) await addCouponUse(db, before, day, -1);
}

/** Tickets of a paid order given back while the order stays (a rejected attendee): they leave its paid day. */
export async function uncountTickets(db: Executor, order: OrderRow, tickets: number): Promise<void> {
  if (order.comp || !order.paid_at) return;
  await addToSales(db, order, dayIn(order.organization_id, order.paid_at), { tickets: -tickets, orders: 0, gross: 0, refunded: 0, couponOrders: 0, couponDiscount: 0 });
}

/** A succeeded refund: revenue falls on the day the money went back; `addOns` of `amount` returned a booking's add-ons. */
export async function countRefund(db: Executor, order: OrderRow, amount: number, addOns: number, at: Date): Promise<void> {
  if (order.comp) return;
  const d = { tickets: 0, orders: 0, gross: 0, refunded: amount, couponOrders: 0, couponDiscount: 0, addOnsRefunded: addOns };
  await addToSales(db, order, dayIn(order.organization_id, at), d);
}

/** A counted page view: the event it was of, the visitor's hash, when. */
export interface PendingView {
  event: { id: string; tenant_id: string; livemode: boolean; organization_id: string };
  visitorHash: string;
  at: Date;
  /** Where the visitor came from (`trafficSourceOf`); null: direct. */
  source: string | null;
}

/**
 * One statement for a batch of views: the raw views (skipped when the visitor viewed the event within the window
 * before), each visitor's first view of the event that day, the day's counts and its views per source, a day being
 * the organization's calendar day at the view. Rollup rows are taken in key order, so two processes' batches
 * cannot deadlock.
 */
export async function countViews(db: Executor, views: readonly PendingView[], windowMinutes: number): Promise<void> {
  const col = <T>(f: (v: PendingView) => T) => views.map(f);
  await sql`
    with input as (
      select * from unnest(
        ${col((v) => v.event.tenant_id)}::text[], ${col((v) => v.event.livemode)}::boolean[],
        ${col((v) => v.event.organization_id)}::text[], ${col((v) => v.event.id)}::uuid[],
        ${col((v) => v.visitorHash)}::text[], ${col((v) => v.at.toISOString())}::timestamptz[], ${col((v) => v.source)}::text[]
      ) as i(tenant_id, livemode, organization_id, event_id, visitor_hash, viewed_at, source)
    ), viewed as (
      insert into event_page_views (tenant_id, livemode, organization_id, event_id, visitor_hash, viewed_at, source)
      select i.tenant_id, i.livemode, i.organization_id, i.event_id, i.visitor_hash, i.viewed_at, i.source from input i
      where not exists (
        select 1 from event_page_views p
        where p.event_id = i.event_id and p.visitor_hash = i.visitor_hash
          and p.viewed_at > i.viewed_at - make_interval(mins => ${windowMinutes})
      )
      returning tenant_id, livemode, organization_id, event_id, visitor_hash, viewed_at, coalesce(source, 'direct') as source
    ), dated as (
      select v.*, (v.viewed_at at time zone coalesce((select timezone from organizations o where o.id = v.organization_id), 'UTC'))::date as day
      from viewed v
    ), first_today as (
      insert into event_day_visitors (event_id, day, visitor_hash)
      select event_id, day, visitor_hash from dated order by event_id, day, visitor_hash
      on conflict do nothing
      returning event_id, day
    ), sourced as (
      insert into event_daily_sources as s (tenant_id, livemode, organization_id, event_id, day, source, page_views)
      select tenant_id, livemode, organization_id, event_id, day, source, count(*) from dated
      group by tenant_id, livemode, organization_id, event_id, day, source
      order by event_id, day, source
      on conflict (event_id, day, source) do update set page_views = s.page_views + excluded.page_views
    )
    insert into event_daily_views as v (tenant_id, livemode, organization_id, event_id, day, page_views, unique_visitors)
    select d.tenant_id, d.livemode, d.organization_id, d.event_id, d.day, count(*),
      (select count(*) from first_today f where f.event_id = d.event_id and f.day = d.day)
    from dated d
    group by d.tenant_id, d.livemode, d.organization_id, d.event_id, d.day
    order by d.event_id, d.day
    on conflict (event_id, day) do update set
      page_views = v.page_views + excluded.page_views, unique_visitors = v.unique_visitors + excluded.unique_visitors`.execute(db);
}
