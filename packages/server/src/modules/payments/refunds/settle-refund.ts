import type { AppContext } from '../../../core/context';
import { emitEvent } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';
import { paymentTarget } from '../payment-targets';
import { noticeFailedRefund } from './failed-refund-notice';
import type { RefundState } from '../provider';
import { countOnPayment, findRefund, updateRefund, type RefundRow } from './refunds.repository';
import { serializeRefund } from './refunds.serializer';

/**
 * Applies a provider's final answer to a `pending` refund, once: the row is locked, and a refund already
 * settled changes nothing. The order's product then counts (or frees) the amount.
 */
export async function settleRefund(ctx: AppContext, scope: Scope, refundId: string, state: RefundState, providerReference?: string | null): Promise<RefundRow | undefined> {
  return ctx.db.transaction().execute(async (trx) => {
    const refund = await findRefund(trx, scope, refundId, true);
    if (!refund) return undefined;
    if (refund.status !== 'pending') return refund;
    if (state.status === 'pending') {
      if (providerReference && !refund.provider_reference) return updateRefund(trx, scope, refund.id, { provider_reference: providerReference });
      return refund;
    }
    const settled = await updateRefund(trx, scope, refund.id, {
      status: state.status,
      failure_code: state.status === 'failed' ? state.failureCode : null,
      failure_message: state.status === 'failed' ? state.failureMessage : null,
      provider_reference: providerReference ?? refund.provider_reference,
      settled_at: new Date(),
      next_check_at: null,
    });
    if (settled.status === 'succeeded' && settled.payment_id) await countOnPayment(trx, scope, settled.payment_id, settled.amount);
    await paymentTarget().refundSettled(trx, ctx, scope, settled);
    if (settled.status === 'failed') await noticeFailedRefund(trx, scope, settled);
    await emitEvent(trx, scope, {
      type: settled.status === 'succeeded' ? 'payments.refund.succeeded' : 'payments.refund.failed',
      subject: settled.id,
      object: serializeRefund(settled),
      previousAttributes: { status: 'pending' },
    });
    return settled;
  });
}
