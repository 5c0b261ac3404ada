import type { Order } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { emitEvent } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { findEventById, findTicketType } from '../booking/catalogue-reads';
import { releaseSeats, sellHeldSeats, takeSoldSeats } from '../capacity/capacity-buckets';
import { redeemHeldCouponUse, releaseCouponUse, takeRedeemedCouponUse } from '../capacity/coupon-uses';
import { setTicketStatus } from '../tickets/ticket-rows.service';
import { onOrderPaid } from '../analytics/order-hooks';
import { uncountSale } from '../analytics/rollups';
import { grantTicketHolders, revokeTicketHolders } from './order-holders';
import { writePaidOrderMessages } from './order-messages';
import { findOrder, transitionOrder, type OrderRow } from './orders.repository';
import { presentOrder } from './orders.serializer';

export const nowOf = (ctx: Pick<AppContext, 'clock'>) => (ctx.clock ? ctx.clock() : new Date());

export type MarkPaidResult =
  | { outcome: 'paid'; order: Order }
  /** The order was expired and its seats went to others meanwhile: the caller refunds the payment. */
  | { outcome: 'seats_unavailable'; order: Order }
  /** Paid already, cancelled or refunded: nothing changed. */
  | { outcome: 'not_payable'; order: Order };

/**
 * The order's seats move from held to sold, or (a payment after expiry) are taken again if there is room.
 * Held seats answer `'move_held'`: the caller moves them in the buckets as its last statement, because those
 * rows are shared by every payment of the event and their lock lasts until the commit.
 */
async function sellSeats(trx: Transaction<DB>, scope: Scope, order: OrderRow): Promise<boolean | 'move_held'> {
  if (await transitionOrder(trx, scope, order.id, { seats_state: 'held' }, { seats_state: 'sold' })) return 'move_held';
  if (await transitionOrder(trx, scope, order.id, { seats_state: 'released' }, { seats_state: 'sold' })) {
    if (await takeSoldSeats(trx, order.bucket_ids, order.seats)) return true;
    await transitionOrder(trx, scope, order.id, { seats_state: 'sold' }, { seats_state: 'released' });
    return false;
  }
  return order.seats_state === 'sold';
}

/** The coupon use is redeemed; one released by an expiry is taken again when a use is left (else the price stands). */
async function redeemCoupon(trx: Transaction<DB>, scope: Scope, order: OrderRow): Promise<void> {
  if (!order.coupon_id) return;
  if (await transitionOrder(trx, scope, order.id, { coupon_state: 'held' }, { coupon_state: 'redeemed' })) {
    await redeemHeldCouponUse(trx, order.coupon_id);
  } else if (order.coupon_state === 'released' && (await takeRedeemedCouponUse(trx, order.coupon_id))) {
    await transitionOrder(trx, scope, order.id, { coupon_state: 'released' }, { coupon_state: 'redeemed' });
  }
}

/**
 * Marks an order paid inside the caller's transaction (the payment's confirmation, or a booking with nothing
 * due): seats sold, coupon redeemed, tickets valid, each attendee's customer and stream entitlement, the ticket
 * messages and receipt, and `events.order.paid`. The order row is locked first, so concurrent calls take turns
 * and only one of them pays it. `amountPaid` defaults to the whole total.
 */
export async function markOrderPaid(
  trx: Transaction<DB>,
  ctx: Pick<AppContext, 'secrets' | 'clock'>,
  scope: Scope,
  orderId: string,
  opts: { amountPaid?: number } = {},
): Promise<MarkPaidResult> {
  const now = nowOf(ctx);
  const order = await findOrder(trx, scope, orderId, { forUpdate: true });
  if (!order) throw new Error(`markOrderPaid: no order ${orderId}`);
  if (order.status !== 'pending' && order.status !== 'expired') return { outcome: 'not_payable', order: await presentOrder(trx, scope, order) };
  const sold = await sellSeats(trx, scope, order);
  if (!sold) return { outcome: 'seats_unavailable', order: await presentOrder(trx, scope, order) };
  // Buckets before the coupon, as a booking takes them, so two transactions never wait for each other crosswise.
  if (sold !== 'move_held') await redeemCoupon(trx, scope, order);
  const paid = (await transitionOrder(
    trx,
    scope,
    order.id,
    { status: ['pending', 'expired'] },
    { status: 'paid', paid_at: now, expired_at: null, amount_paid: opts.amountPaid ?? order.amount_total },
  ))!;
  const tickets = await setTicketStatus(trx, scope, order.id, ['pending_payment', 'void'], 'valid');
  tickets.sort((a, b) => a.position - b.position);
  await onOrderPaid(trx, paid, tickets);
  const event = (await findEventById(trx, scope, order.event_id))!;
  const ticketType = (await findTicketType(trx, scope, order.event_id, order.ticket_type_id))!;
  await grantTicketHolders(trx, scope, paid, tickets, event, ticketType, now);
  await writePaidOrderMessages(trx, scope, ctx.secrets, paid, tickets, event, ticketType);
  const shown = await presentOrder(trx, scope, paid);
  await emitEvent(trx, scope, { type: 'events.order.paid', subject: paid.id, object: shown, previousAttributes: { status: order.status } });
  // Held to sold cannot fail (the room was counted at the hold) and leaves held + sold unchanged, so it waits
  // until here: a confirmation then keeps the event's hot bucket rows locked only until its commit.
  if (sold === 'move_held') {
    await sellHeldSeats(trx, order.bucket_ids, order.seats);
    await redeemCoupon(trx, scope, order);
  }
  return { outcome: 'paid', order: shown };
}

/**
 * Gives back what an order took, inside the caller's transaction, each part at most once (conditional updates
 * on the order): seats (held or sold), the coupon use, the tickets (void) and the stream entitlements (revoked).
 * The caller has moved the order's status already (expired, cancelled, refunded); this does not change it.
 */
export async function releaseOrder(trx: Transaction<DB>, ctx: Pick<AppContext, 'clock'>, scope: Scope, orderId: string): Promise<OrderRow> {
  const now = nowOf(ctx);
  const order = await findOrder(trx, scope, orderId, { forUpdate: true });
  if (!order) throw new Error(`releaseOrder: no order ${orderId}`);
  for (const from of ['held', 'sold'] as const) {
    if (await transitionOrder(trx, scope, order.id, { seats_state: from }, { seats_state: 'released' })) {
      await releaseSeats(trx, order.bucket_ids, order.seats, from);
      if (from === 'sold') await uncountSale(trx, order);
    }
  }
  if (order.coupon_id) {
    for (const from of ['held', 'redeemed'] as const) {
      if (await transitionOrder(trx, scope, order.id, { coupon_state: from }, { coupon_state: 'released' })) {
        await releaseCouponUse(trx, order.coupon_id, from);
      }
    }
  }
  await setTicketStatus(trx, scope, order.id, ['pending_payment', 'valid'], 'void');
  await revokeTicketHolders(trx, scope, order, now);
  return (await findOrder(trx, scope, orderId))!;
}
