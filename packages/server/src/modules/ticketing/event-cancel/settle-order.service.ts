import type { AppContext } from '../../../core/context';
import { emitEvent } from '../../../core/events/emit-event';
import { scoped, type Scope } from '../../../core/scope';
import { cancelPendingOrder, orderObject, releaseOrderAs } from '../payments/order-port';
import { issueRefund } from '../refunds/issue-refund';
import { orderAfterRefund } from '../refunds/order-after-refund';
import { refundRemainingUnits, reportRefundedUnits } from '../refunds/refund-lines';

export const EVENT_CANCELLED_REASON = 'event_cancelled';

/**
 * A paid order of a cancelled event, under its row lock: refunded in full (its own `re_` row) and released;
 * a free one (nothing left to refund) is cancelled and released, its units given back as a full refund gives them
 * back (add-ons restocked, as a refund's default `restock`; digital items' grants revoked). A refund the network
 * refused is not tried again by the job: the order stays paid with its failed refund for the organizer to settle.
 */
async function refundPaid(ctx: AppContext, scope: Scope, orderId: string): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const order = await scoped(trx, scope).selectFrom('orders').selectAll().where('id', '=', orderId).forUpdate().executeTakeFirst();
    if (!order || (order.status !== 'paid' && order.status !== 'partially_refunded')) return false;
    const refundable = order.amount_paid - order.amount_refunded - order.amount_refund_pending;
    // Refunds still on their way back decide the order when they settle.
    if (refundable <= 0 && order.amount_refund_pending > 0) return false;
    if (refundable <= 0) {
      await reportRefundedUnits(trx, ctx, scope, order, await refundRemainingUnits(trx, scope, order.id), true);
      const released = await releaseOrderAs(trx, ctx, scope, order, 'cancelled');
      if (!released) return false;
      await emitEvent(trx, scope, {
        type: 'events.order.cancelled',
        subject: order.id,
        object: await orderObject(trx, scope, released),
        previousAttributes: { status: order.status },
      });
      return true;
    }
    const triedBefore = await scoped(trx, scope)
      .selectFrom('refunds')
      .select('id')
      .where('order_id', '=', order.id)
      .where('status', '=', 'failed')
      .where('reason', '=', EVENT_CANCELLED_REASON)
      .executeTakeFirst();
    if (triedBefore) return false;
    const issued = await issueRefund(trx, ctx, scope, order, refundable, EVENT_CANCELLED_REASON);
    if (issued.refund.status === 'succeeded') await orderAfterRefund(trx, ctx, scope, issued.order);
    return issued.refund.status === 'succeeded';
  });
}

/** One order of a cancelled event, each in its own transaction: pending ones are cancelled, paid ones refunded in full. */
export async function settleOrderOfCancelledEvent(ctx: AppContext, scope: Scope, orderId: string): Promise<boolean> {
  // A pending order is cancelled; one paid meanwhile is refunded instead.
  const cancelled = await ctx.db.transaction().execute((trx) => cancelPendingOrder(trx, ctx, scope, orderId));
  return cancelled || refundPaid(ctx, scope, orderId);
}
