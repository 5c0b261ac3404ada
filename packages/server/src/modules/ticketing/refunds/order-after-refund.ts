import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { emitEvent } from '../../../core/events/emit-event';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { orderObject, releaseOrderAs, type OrderRow } from '../payments/order-port';
import { orderEventType } from '../orders/order-kinds';
import { refundRemainingUnits, reportRefundedUnits } from './refund-lines';

/**
 * Moves a paid order after money went back: `refunded` once everything paid was returned (seats, coupon
 * and stream released; every line's units counted refunded, and a product or subscription order's module told
 * of them, with `restock`, then of the release), else `partially_refunded`.
 */
export async function orderAfterRefund(trx: Transaction<DB>, ctx: AppContext, scope: Scope, order: OrderRow, opts: { restock?: boolean } = {}): Promise<OrderRow> {
  if (order.status !== 'paid' && order.status !== 'partially_refunded') return order;
  if (order.amount_refunded >= order.amount_paid) {
    // Every unit not refunded yet is now: the kind's module hears of them before the order is released.
    const rest = await refundRemainingUnits(trx, scope, order.id);
    await reportRefundedUnits(trx, ctx, scope, order, rest, opts.restock ?? true);
    const released = await releaseOrderAs(trx, ctx, scope, order, 'refunded');
    if (!released) return order;
    await emitEvent(trx, scope, {
      type: orderEventType(released.kind, 'refunded'),
      subject: released.id,
      object: await orderObject(trx, scope, released),
      previousAttributes: { status: order.status },
    });
    return released;
  }
  if (order.status === 'partially_refunded') return order;
  const moved = await scoped(trx, scope)
    .updateTable('orders')
    .set({ status: 'partially_refunded', updated_at: new Date() })
    .where('id', '=', order.id)
    .where('status', '=', 'paid')
    .returningAll()
    .executeTakeFirst();
  return moved ?? order;
}
