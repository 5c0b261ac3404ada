import type { Order } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { emitEvent } from '../../../core/events/emit-event';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { markHeldOrdersPaid, markOrderPaid, releaseOrder, type EventRequest, type LockedOrder } from '../orders/order-transitions';
import type { OrderRow } from '../orders/order-rows.service';
import { releaseKindOrder } from '../orders/kind-transitions';
import { presentOrder } from '../orders/orders.serializer';

export type { EventRequest, LockedOrder, OrderRow };

/** The event and ticket type of an order, read with its lock. */
export type OrderCatalogue = Omit<LockedOrder, 'order'>;

/**
 * What payments need of the orders folder's transitions: paid (seats sold or taken again, tickets valid,
 * stream granted, messages, `events.order.paid`), and released (seats and coupon back, tickets void, stream
 * revoked) after payments moved the status.
 */
export async function payOrder(
  trx: Transaction<DB>,
  ctx: AppContext,
  scope: Scope,
  order: OrderRow,
  catalogue?: OrderCatalogue,
): Promise<{ paid: boolean; reason?: string }> {
  // `order` is the row as the caller's transaction locked and last updated it: markOrderPaid need not read it again.
  const locked = catalogue ? { order, ...catalogue } : undefined;
  const result = await markOrderPaid(trx, ctx, scope, order.id, { amountPaid: order.amount_paid, locked });
  return { paid: result.outcome === 'paid', reason: result.outcome === 'seats_unavailable' ? result.reason : undefined };
}

/**
 * Several pending orders with their seats held and no coupon, locked with their catalogue, each fully paid by
 * the payment just recorded for it: paid together (`markHeldOrdersPaid`), each order's events for its request.
 */
export const payHeldOrders = (trx: Transaction<DB>, ctx: AppContext, scope: Scope, locked: readonly LockedOrder[], requests: readonly EventRequest[]): Promise<Order[]> =>
  markHeldOrdersPaid(trx, ctx, scope, locked, requests);

/**
 * Cancels a pending order (its event was cancelled) as `POST /v1/orders/{id}/cancel` does, without a caller:
 * one conditional update on its status, then its seats, coupon, tickets and open checkout released, and
 * `events.order.cancelled`. Answers `false` when the order was no longer pending.
 */
export async function cancelPendingOrder(trx: Transaction<DB>, ctx: AppContext, scope: Scope, orderId: string): Promise<boolean> {
  const now = new Date();
  const moved = await scoped(trx, scope)
    .updateTable('orders')
    .set({ status: 'cancelled', cancelled_at: now, updated_at: now })
    .where('id', '=', orderId)
    .where('status', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  if (!moved) return false;
  const released = await releaseOrder(trx, ctx, scope, orderId);
  await scoped(trx, scope).updateTable('checkout_sessions').set({ status: 'expired' }).where('order_id', '=', orderId).where('status', '=', 'open').execute();
  await emitEvent(trx, scope, {
    type: 'events.order.cancelled',
    subject: orderId,
    object: await presentOrder(trx, scope, released),
    previousAttributes: { status: 'pending' },
  });
  return true;
}

/** Moves the order to `to` (one conditional update on its status), then releases what it took. */
export async function releaseOrderAs(
  trx: Transaction<DB>,
  ctx: AppContext,
  scope: Scope,
  order: OrderRow,
  to: 'refunded' | 'cancelled',
): Promise<OrderRow | undefined> {
  const now = new Date();
  const moved = await scoped(trx, scope)
    .updateTable('orders')
    .set(to === 'cancelled' ? { status: to, cancelled_at: now, updated_at: now } : { status: to, updated_at: now })
    .where('id', '=', order.id)
    .where('status', 'in', ['paid', 'partially_refunded'])
    .returningAll()
    .executeTakeFirst();
  if (!moved) return undefined;
  if (moved.kind === 'ticket') return releaseOrder(trx, ctx, scope, order.id);
  await releaseKindOrder(trx, ctx, scope, moved, to);
  return moved;
}

export const orderObject = (trx: Transaction<DB>, scope: Scope, order: OrderRow): Promise<Order> => presentOrder(trx, scope, order);
