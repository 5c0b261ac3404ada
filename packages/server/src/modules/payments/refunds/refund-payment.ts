import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { emitEvent } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import type { PaymentRow } from '../attempts/payment-rows.service';
import type { AttemptRef, RefundState } from '../provider';
import { simulatedProvider } from '../providers/provider-for';
import { countOnPayment, insertRefund, type RefundRow } from './refunds.repository';
import { serializeRefund } from './refunds.serializer';
import { noticeFailedRefund } from './failed-refund-notice';

export const attemptOf = (p: PaymentRow): AttemptRef => ({
  paymentId: p.id,
  providerReference: p.provider_reference,
  providerReceipt: p.provider_receipt,
  amount: p.amount,
  currency: p.currency,
  method: p.method === 'comp' ? 'card' : p.method,
  payerHint: p.payer_hint,
});

export interface RefundPaymentInput {
  payment: PaymentRow;
  amount: number;
  reason: string | null;
  /** `manual`: the money went back outside the service; recorded `succeeded`, no provider call. */
  manual?: boolean;
  metadata?: Record<string, string>;
  /** `false` for money the order never counted (a duplicate, a refused late payment, a mismatched amount). */
  countedOnOrder?: boolean;
}

/**
 * Returns `amount` of one payment's money. The simulator answers at once, inside the caller's transaction; a
 * live provider is asked by the reconciliation job after the commit (no network call holds a lock), so its
 * refund starts `pending`. Emits `payments.refund.created` (pending), `.succeeded` or `.failed`. The caller
 * counts it on the order: it owns the order's accounting.
 */
export async function refundPayment(trx: Transaction<DB>, ctx: AppContext, scope: Scope, input: RefundPaymentInput): Promise<RefundRow> {
  const { payment } = input;
  let state: RefundState;
  if (input.manual) state = { status: 'succeeded' };
  else if (payment.provider === 'simulated' || payment.provider === null) {
    state = (await simulatedProvider(ctx).refund({ refundId: 're_new', payment: attemptOf(payment), amount: input.amount, currency: payment.currency, callbackUrl: '' })).state;
  } else state = { status: 'pending' };
  const refund = await insertRefund(trx, scope, {
    orderId: payment.order_id,
    paymentId: payment.id,
    amount: input.amount,
    currency: payment.currency,
    reason: input.reason,
    status: state.status,
    failureCode: state.status === 'failed' ? state.failureCode : null,
    source: input.manual ? 'manual' : 'provider',
    provider: input.manual ? null : payment.provider,
    providerConfigId: input.manual ? null : payment.provider_config_id,
    providerReference: null,
    metadata: input.metadata,
    orderCounted: input.countedOnOrder ?? true,
    // A live refund is sent by the reconciliation job's next pass.
    nextCheckAt: state.status === 'pending' && payment.provider !== 'simulated' ? new Date() : null,
  });
  const object = serializeRefund(refund);
  if (state.status === 'succeeded') {
    await countOnPayment(trx, scope, payment.id, input.amount);
    await emitEvent(trx, scope, { type: 'payments.refund.succeeded', subject: refund.id, object });
  } else if (state.status === 'failed') {
    await emitEvent(trx, scope, { type: 'payments.refund.failed', subject: refund.id, object });
    await noticeFailedRefund(trx, scope, refund);
  } else {
    await emitEvent(trx, scope, { type: 'payments.refund.created', subject: refund.id, object });
  }
  return refund;
}
