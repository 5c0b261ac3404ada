import type { Transaction } from 'kysely';
import { ApiError } from '../../../core/errors';
import { emitEvent } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import type { OrderRow } from '../payments/order-port';
import { succeededPayments } from '../payments/payments.service';
import { refundsFailFor } from '../payments/simulator';
import { countRefund } from '../analytics/rollups';
import { insertRefund, reserveRefund, serializeRefund, type RefundRow } from './refunds.repository';

export interface IssuedRefund {
  refund: RefundRow;
  /** The order after the refund was counted (unchanged when it failed). */
  order: OrderRow;
}

/**
 * Returns `amount` of what an order paid, settled at once by the simulated network: counted against the
 * order with one conditional update, recorded as its own `re_` row, announced as `payments.refund.*`.
 * A refund the network refuses is recorded `failed` and counts for nothing. The caller moves the order's status.
 */
export async function issueRefund(
  trx: Transaction<DB>,
  scope: Scope,
  order: OrderRow,
  amount: number,
  reason: string | null,
): Promise<IssuedRefund> {
  const payments = await succeededPayments(trx, scope, order.id);
  const refused = payments.some((p) => refundsFailFor(p.method, p.payer_hint));
  const base = { orderId: order.id, amount, currency: order.currency, reason };
  if (refused) {
    const refund = await insertRefund(trx, scope, { ...base, status: 'failed', failureCode: 'declined' });
    await emitEvent(trx, scope, { type: 'payments.refund.failed', subject: refund.id, object: serializeRefund(refund) });
    return { refund, order };
  }
  const counted = await reserveRefund(trx, scope, order.id, amount);
  if (!counted) {
    const now = await trx.selectFrom('orders').select(['amount_paid', 'amount_refunded']).where('id', '=', order.id).executeTakeFirstOrThrow();
    throw ApiError.of('refund_amount_too_large', {
      param: 'amount',
      details: { refundable: now.amount_paid - now.amount_refunded },
    });
  }
  const refund = await insertRefund(trx, scope, { ...base, status: 'succeeded', failureCode: null });
  await countRefund(trx, counted, amount, refund.created_at);
  await emitEvent(trx, scope, { type: 'payments.refund.succeeded', subject: refund.id, object: serializeRefund(refund) });
  return { refund, order: counted };
}
