import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { latePaymentPolicy, refundPayment, type PaymentRow, type PaymentTarget, type RefundRow } from '../../payments';
import { lockOrderWithCatalogue } from '../checkout/checkout-sessions.service';
import { orderAfterRefund } from '../refunds/order-after-refund';
import { settleOrderRefund } from '../refunds/refund-accounting';
import { freeRefundUnits, reportRefundedUnits, unitsOfRefund } from '../refunds/refund-lines';
import { applyPayment } from './apply-payment';
import { paymentsSucceededTogether } from './pay-together';

/**
 * A confirmed payment of a ticket order (products-api § 1.8): paid as usual while the order waits; after it
 * expired, taken again if seats remain (`accept_if_available`) or refunded (`refund`); refunded when the order
 * was cancelled, its event cancelled, or it is already paid (a second prompt approved too). Refunded money is
 * never counted on the order.
 */
async function paymentSucceeded(trx: Transaction<DB>, ctx: AppContext, scope: Scope, payment: PaymentRow): Promise<{ late: boolean }> {
  const { order, event, ticketType } = await lockOrderWithCatalogue(trx, payment.order_id);
  const giveBack = async (reason: string) => {
    await refundPayment(trx, ctx, scope, { payment, amount: payment.amount, reason, countedOnOrder: false });
  };
  const late = order.status !== 'pending';
  if (order.status === 'cancelled') return giveBack('order_cancelled').then(() => ({ late }));
  if (event?.status === 'cancelled') return giveBack('event_cancelled').then(() => ({ late }));
  if ((order.status !== 'pending' && order.status !== 'expired') || order.amount_paid + payment.amount > order.amount_total) {
    return giveBack('duplicate_payment').then(() => ({ late: false }));
  }
  if (order.status === 'expired' && (await latePaymentPolicy(trx, scope)) === 'refund') return giveBack('late_payment').then(() => ({ late }));
  if (payment.checkout_session_id) {
    await scoped(trx, scope)
      .updateTable('checkout_sessions')
      .set({ status: 'complete', completed_at: new Date() })
      .where('id', '=', payment.checkout_session_id)
      .where('status', 'in', ['open', 'expired'])
      .execute();
  }
  await applyPayment(trx, ctx, scope, order, payment.amount, event ? { event, ticketType } : undefined);
  return { late };
}

/** A pending refund settled: counted on the order (and the order moved) or freed again. */
async function refundSettled(trx: Transaction<DB>, ctx: AppContext, scope: Scope, refund: RefundRow): Promise<void> {
  if (!refund.order_counted) return;
  const order = await scoped(trx, scope).selectFrom('orders').selectAll().where('id', '=', refund.order_id).forUpdate().executeTakeFirstOrThrow();
  const moved = await settleOrderRefund(trx, scope, order, refund);
  // Its units were held on the lines when it was made: freed again, or reported to the order's kind.
  if (refund.status !== 'succeeded') return freeRefundUnits(trx, scope, refund);
  await reportRefundedUnits(trx, ctx, scope, moved, await unitsOfRefund(trx, scope, refund), refund.restock);
  if (moved.amount_refund_pending === 0) await orderAfterRefund(trx, ctx, scope, moved, { restock: refund.restock });
}

export const ticketPaymentTarget: PaymentTarget = { paymentSucceeded, paymentsSucceededTogether, refundSettled };
