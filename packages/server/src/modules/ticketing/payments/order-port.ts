import type { Order } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { markOrderPaid, releaseOrder } from '../orders/order-transitions';
import type { OrderRow } from '../orders/order-rows.service';
import { presentOrder } from '../orders/orders.serializer';

export type { OrderRow };

/**
 * What payments need of the orders folder's transitions: paid (seats sold or taken again, tickets valid,
 * stream granted, messages, `events.order.paid`), and released (seats and coupon back, tickets void, stream
 * revoked) after payments moved the status.
 */
export async function payOrder(trx: Transaction<DB>, ctx: AppContext, scope: Scope, order: OrderRow): Promise<{ paid: boolean }> {
  const result = await markOrderPaid(trx, ctx, scope, order.id, { amountPaid: order.amount_paid });
  return { paid: result.outcome === 'paid' };
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
  return releaseOrder(trx, ctx, scope, order.id);
}

export const orderObject = (trx: Transaction<DB>, scope: Scope, order: OrderRow): Promise<Order> => presentOrder(trx, scope, order);
