import type { AppContext } from '../../../core/context';
import { scoped, type Scope } from '../../../core/scope';
import { cancelOrderFor, releaseOrderFor } from '../payments/order-port';
import { issueRefund } from '../refunds/issue-refund';
import { orderAfterRefund } from '../refunds/order-after-refund';

export const EVENT_CANCELLED_REASON = 'event_cancelled';

/**
 * One order of a cancelled event, under its row lock: a pending order is cancelled; a paid one is refunded
 * in full (its own `re_` row) and released. A refund the network refused is not tried again by the job: the
 * order stays paid with its failed refund for the organizer to settle.
 */
export async function settleOrderOfCancelledEvent(ctx: AppContext, scope: Scope, orderId: string): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const order = await scoped(trx, scope).selectFrom('orders').selectAll().where('id', '=', orderId).forUpdate().executeTakeFirst();
    if (!order) return false;
    if (order.status === 'pending') {
      await cancelOrderFor(trx, ctx, scope, order);
      return true;
    }
    if (order.status !== 'paid' && order.status !== 'partially_refunded') return false;
    const refundable = order.amount_paid - order.amount_refunded;
    if (refundable <= 0) {
      // A free order: nothing goes back; it is cancelled and released.
      await releaseOrderFor(trx, ctx, scope, order, 'cancelled');
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
    const issued = await issueRefund(trx, scope, order, refundable, EVENT_CANCELLED_REASON);
    if (issued.refund.status === 'succeeded') await orderAfterRefund(trx, ctx, scope, issued.order);
    return issued.refund.status === 'succeeded';
  });
}
