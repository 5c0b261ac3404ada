import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../../db/database';
import type { OrderRow } from '../orders/order-rows.service';
import type { TicketRow } from '../tickets/ticket-rows.service';

/**
 * The daily rollups the organizer analytics read, kept by the writes they count, in the writer's transaction.
 * Each is one upsert that adds to the day's row (`x = x + excluded.x`), so concurrent writers never lose a count
 * and no one reads-then-writes. A day is the organization's calendar day at the moment of the write.
 */
export const dayIn = (organizationId: string, at: Date): RawBuilder<string> =>
  sql`(${at}::timestamptz at time zone coalesce((select timezone from organizations where id = ${organizationId}), 'UTC'))::date`;

/** The person behind a ticket for repeat counting: their email, lower-cased, else the digits of their phone. */
export function attendeeKeyOf(email: string | null, phone: string | null): string | null {
  const e = email?.trim().toLowerCase();
  if (e) return `e:${e}`;
  const digits = phone?.replace(/\D/g, '');
  return digits ? `p:${digits}` : null;
}

interface SaleDelta {
  tickets: number;
  orders: number;
  gross: number;
  refunded: number;
  couponOrders: number;
  couponDiscount: number;
}

async function addToSales(db: Executor, order: OrderRow, day: RawBuilder<string>, d: SaleDelta) {
  await sql`
    insert into event_daily_sales as s (tenant_id, livemode, organization_id, event_id, ticket_type_id, day,
      tickets_sold, orders_paid, gross, refunded, coupon_orders, coupon_discount)
    values (${order.tenant_id}, ${order.livemode}, ${order.organization_id}, ${order.event_id}::uuid, ${order.ticket_type_id}::uuid, ${day},
      ${d.tickets}, ${d.orders}, ${d.gross}, ${d.refunded}, ${d.couponOrders}, ${d.couponDiscount})
    on conflict (event_id, ticket_type_id, day) do update set
      tickets_sold = s.tickets_sold + excluded.tickets_sold, orders_paid = s.orders_paid + excluded.orders_paid,
      gross = s.gross + excluded.gross, refunded = s.refunded + excluded.refunded,
      coupon_orders = s.coupon_orders + excluded.coupon_orders, coupon_discount = s.coupon_discount + excluded.coupon_discount`.execute(db);
}

async function addCouponUse(db: Executor, order: OrderRow, day: RawBuilder<string>, uses: number) {
  await sql`
    insert into coupon_daily_uses as c (organization_id, event_id, coupon_id, day, uses, discount)
    values (${order.organization_id}, ${order.event_id}::uuid, ${order.coupon_id}::uuid, ${day}, ${uses}, ${uses * order.amount_discount})
    on conflict (coupon_id, day) do update set uses = c.uses + excluded.uses, discount = c.discount + excluded.discount`.execute(db);
}

/** A paid order (not a comp): its tickets, its money, its coupon, and who it was for. */
export async function countPaidOrder(db: Executor, paid: OrderRow, tickets: readonly TicketRow[]): Promise<void> {
  if (paid.comp || !paid.paid_at) return;
  const day = dayIn(paid.organization_id, paid.paid_at);
  // A use still held here is redeemed later in the same transaction (markOrderPaid takes the coupon last).
  const coupon = paid.coupon_id !== null && (paid.coupon_state === 'redeemed' || paid.coupon_state === 'held');
  await addToSales(db, paid, day, {
    tickets: paid.seats,
    orders: 1,
    gross: paid.amount_paid,
    refunded: 0,
    couponOrders: coupon ? 1 : 0,
    couponDiscount: coupon ? paid.amount_discount : 0,
  });
  if (coupon) await addCouponUse(db, paid, day, 1);
  const keys = new Set(tickets.map((t) => attendeeKeyOf(t.email, t.phone)).filter((k): k is string => k !== null));
  if (keys.size === 0) {
    const buyer = attendeeKeyOf(paid.buyer_email, paid.buyer_phone);
    if (buyer) keys.add(buyer);
  }
  for (const key of keys) {
    await sql`
      insert into organization_attendee_events (organization_id, attendee_key, event_id, day)
      values (${paid.organization_id}, ${key}, ${paid.event_id}::uuid, ${day})
      on conflict do nothing`.execute(db);
  }
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

/** A succeeded refund: revenue falls on the day the money went back. */
export async function countRefund(db: Executor, order: OrderRow, amount: number, at: Date): Promise<void> {
  if (order.comp) return;
  await addToSales(db, order, dayIn(order.organization_id, at), { tickets: 0, orders: 0, gross: 0, refunded: amount, couponOrders: 0, couponDiscount: 0 });
}

/**
 * A counted page view, in one statement: the raw view, the visitor's first view of the event that day, and the
 * day's counts. The view is skipped when the visitor viewed the event within `windowMinutes`.
 */
export async function countView(
  db: Executor,
  event: { id: string; tenant_id: string; livemode: boolean; organization_id: string },
  visitorHash: string,
  windowMinutes: number,
): Promise<void> {
  const day = dayIn(event.organization_id, new Date());
  await sql`
    with viewed as (
      insert into event_page_views (tenant_id, livemode, organization_id, event_id, visitor_hash)
      select ${event.tenant_id}, ${event.livemode}, ${event.organization_id}, ${event.id}::uuid, ${visitorHash}
      where not exists (
        select 1 from event_page_views
        where event_id = ${event.id}::uuid and visitor_hash = ${visitorHash}
          and viewed_at > now() - make_interval(mins => ${windowMinutes})
      )
      returning event_id
    ), first_today as (
      insert into event_day_visitors (event_id, day, visitor_hash)
      select event_id, ${day}, ${visitorHash} from viewed
      on conflict do nothing
      returning 1
    )
    insert into event_daily_views as v (tenant_id, livemode, organization_id, event_id, day, page_views, unique_visitors)
    select ${event.tenant_id}, ${event.livemode}, ${event.organization_id}, event_id, ${day}, 1, (select count(*) from first_today)
    from viewed
    on conflict (event_id, day) do update set
      page_views = v.page_views + excluded.page_views, unique_visitors = v.unique_visitors + excluded.unique_visitors`.execute(db);
}
