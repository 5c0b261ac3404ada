import type { Order } from '@svc/contract';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import { ticketsOfOrders, type TicketRow } from '../tickets/ticket-rows.service';
import type { OrderRow } from './orders.repository';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The order as the API shows it; attendees carry their ticket's id and status, never its secret. */
export function serializeOrder(row: OrderRow, tickets: readonly TicketRow[], couponCode: string | null): Order {
  return {
    id: row.id,
    object: 'order',
    livemode: row.livemode,
    code: row.code,
    status: row.status,
    event: row.event_id,
    ticket_type: row.ticket_type_id,
    event_slot: row.slot_id,
    quantity: row.quantity,
    amount_total: row.amount_total,
    amount_discount: row.amount_discount,
    amount_paid: row.amount_paid,
    amount_refunded: row.amount_refunded,
    amount_due: Math.max(0, row.amount_total - row.amount_paid),
    currency: row.currency,
    coupon: couponCode,
    buyer: { name: row.buyer_name, email: row.buyer_email, phone: row.buyer_phone },
    customer: row.customer_id,
    attendees: tickets.map((t) => ({
      first_name: t.first_name,
      last_name: t.last_name,
      email: t.email,
      phone: t.phone,
      extra_data: t.extra_data,
      ticket: { id: t.id, status: t.status },
    })),
    expires_at: iso(row.expires_at),
    pay_later: row.pay_later,
    redirect_url: row.redirect_url,
    external_id: row.external_id,
    metadata: row.metadata,
    attribution: row.attribution ?? null,
    paid_at: iso(row.paid_at),
    cancelled_at: iso(row.cancelled_at),
    expired_at: iso(row.expired_at),
    created_at: iso(row.created_at)!,
  };
}

/** Orders as shown, with their tickets and coupon codes read in two queries for the whole page. */
export async function presentOrders(db: Executor, scope: Scope, rows: readonly OrderRow[]): Promise<Order[]> {
  const tickets = await ticketsOfOrders(db, scope, rows.map((r) => r.id));
  const couponIds = [...new Set(rows.map((r) => r.coupon_id).filter((id): id is string => id !== null))];
  const coupons = couponIds.length
    ? await scoped(db, scope).selectFrom('coupons').select(['id', 'code']).where('id', 'in', couponIds).execute()
    : [];
  const codeOf = new Map(coupons.map((c) => [c.id, c.code]));
  return rows.map((r) =>
    serializeOrder(
      r,
      tickets.filter((t) => t.order_id === r.id),
      r.coupon_id ? (codeOf.get(r.coupon_id) ?? null) : null,
    ),
  );
}

export const presentOrder = async (db: Executor, scope: Scope, row: OrderRow): Promise<Order> => (await presentOrders(db, scope, [row]))[0]!;
