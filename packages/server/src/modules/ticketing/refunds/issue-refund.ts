import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { refundablePayments, refundPayment, type RefundRow } from '../../payments';
import type { OrderRow } from '../payments/order-port';
import { settleOrderRefund } from './refund-accounting';
import type { RefundUnits } from './refund-lines';

export interface IssuedRefund {
  /** The first refund made (one per payment the amount is spread over). */
  refund: RefundRow;
  refunds: RefundRow[];
  /** The order after the refunds were counted. */
  order: OrderRow;
}

/**
 * Returns `amount` of what an order paid, one refund per payment it is spread over (newest payment first, or
 * the one named): held on the order with one conditional update first (`amount_refund_pending`), so refunds
 * racing on one order can never return more than was paid. A refund the provider settles at once is counted
 * now; a `pending` one when it settles (`refundSettled`); a refused one frees its amount. The caller moves the
 * order's status.
 */
export async function issueRefund(
  trx: Transaction<DB>,
  ctx: AppContext,
  scope: Scope,
  order: OrderRow,
  amount: number,
  reason: string | null,
  options: { paymentId?: string; manual?: boolean; metadata?: Record<string, string>; units?: RefundUnits } = {},
): Promise<IssuedRefund> {
  const held = await scoped(trx, scope)
    .updateTable('orders')
    .set((eb) => ({ amount_refund_pending: eb('amount_refund_pending', '+', amount), updated_at: new Date() }))
    .where('id', '=', order.id)
    .where((eb) => eb(eb(eb('amount_refunded', '+', eb.ref('amount_refund_pending')), '+', amount), '<=', eb.ref('amount_paid')))
    .returningAll()
    .executeTakeFirst();
  const payments = await refundablePayments(trx, scope, order.id);
  const orderRefundable = async () => {
    const now = await trx.selectFrom('orders').select(['amount_paid', 'amount_refunded', 'amount_refund_pending']).where('id', '=', order.id).executeTakeFirstOrThrow();
    return now.amount_paid - now.amount_refunded - now.amount_refund_pending;
  };
  if (!held) throw ApiError.of('refund_amount_too_large', { param: 'amount', details: { refundable: await orderRefundable(), order_refundable: await orderRefundable() } });
  const named = options.paymentId ? payments.filter((p) => p.payment.id === options.paymentId) : payments;
  const total = named.reduce((sum, p) => sum + p.refundable, 0);
  if (options.paymentId && total < amount) {
    throw ApiError.of('refund_amount_too_large', { param: 'amount', details: { refundable: total, order_refundable: (await orderRefundable()) + amount } });
  }
  const refunds: RefundRow[] = [];
  let left = amount;
  let current = held;
  for (const part of named) {
    if (left <= 0) break;
    const take = Math.min(left, part.refundable);
    left -= take;
    const refund = await refundPayment(trx, ctx, scope, { payment: part.payment, amount: take, reason, manual: options.manual, metadata: options.metadata });
    refunds.push(refund);
    if (refund.status !== 'pending') current = await settleOrderRefund(trx, scope, current, refund, { units: options.units ?? [], amount });
  }
  // Money the order counts but no payment row carries (orders paid before payments were tracked per attempt).
  if (refunds.length === 0) throw ApiError.of('order_not_refundable', { details: { status: order.status, refundable: 0 } });
  return { refund: refunds[0]!, refunds, order: current };
}
