import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { emitEvent } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { paymentTarget } from '../payment-targets';
import type { ProviderPaymentState } from '../provider';
import { refundPayment } from '../refunds/refund-payment';
import { GIVE_UP_AFTER_MS, nextCheckAt } from './check-schedule';
import { findPayment, updatePayment, type PaymentRow } from './payments.repository';
import { serializePayment } from './payments.serializer';
import { sealSavedMethod } from './saved-methods';

export type SettleOutcome = 'succeeded' | 'failed' | 'cancelled' | 'pending' | 'unchanged';

/**
 * Applies what the provider says of a payment, in one transaction holding the payment's row lock, so two
 * confirmations at once (two callbacks, a callback and the reconciliation job) pay once: the second finds it
 * `succeeded` and changes nothing. A success wins over an earlier `failed` or `cancelled` (the provider has
 * the money); a confirmed amount or currency other than the attempt's is `failed` `amount_mismatch` and what
 * was received goes back. The order's product then counts the money (`PaymentTarget.paymentSucceeded`).
 */
export async function settlePayment(ctx: AppContext, scope: Scope, paymentId: string, state: ProviderPaymentState): Promise<{ payment: PaymentRow | undefined; outcome: SettleOutcome }> {
  return ctx.db.transaction().execute(async (trx) => {
    const payment = await findPayment(trx, scope, paymentId, true);
    if (!payment) return { payment, outcome: 'unchanged' as const };
    return settleLocked(trx, ctx, scope, payment, state);
  });
}

const now = (ctx: AppContext) => (ctx.clock ? ctx.clock() : new Date());

export async function settleLocked(trx: Transaction<DB>, ctx: AppContext, scope: Scope, payment: PaymentRow, state: ProviderPaymentState): Promise<{ payment: PaymentRow; outcome: SettleOutcome }> {
  if (payment.status === 'succeeded') return { payment, outcome: 'unchanged' };
  const at = now(ctx);
  if (state.status === 'pending') {
    if (payment.status !== 'pending') return { payment, outcome: 'unchanged' };
    const created = new Date(payment.created_at);
    if (at.getTime() - created.getTime() >= GIVE_UP_AFTER_MS) {
      return fail(trx, scope, payment, 'timeout', 'The payer did not complete the payment within 24 hours.');
    }
    const checks = payment.checks + 1;
    const updated = await updatePayment(trx, scope, payment.id, { checks, next_check_at: nextCheckAt(created, checks) });
    return { payment: updated, outcome: 'pending' };
  }
  if (state.status === 'failed' || state.status === 'cancelled') {
    if (payment.status !== 'pending') return { payment, outcome: 'unchanged' };
    if (state.status === 'failed') return fail(trx, scope, payment, state.failureCode, state.failureMessage);
    const updated = await updatePayment(trx, scope, payment.id, { status: 'cancelled', settled_at: at, next_check_at: null, next_action: null });
    await emitEvent(trx, scope, { type: 'payments.payment.cancelled', subject: updated.id, object: serializePayment(updated), previousAttributes: { status: 'pending' } });
    return { payment: updated, outcome: 'cancelled' };
  }
  const receipt = state.providerReceipt ?? payment.provider_receipt;
  if (state.amount !== payment.amount || state.currency.toUpperCase() !== payment.currency.toUpperCase()) {
    const failed = await fail(trx, scope, { ...payment, provider_receipt: receipt }, 'amount_mismatch', `The provider confirmed ${state.amount} ${state.currency}, not ${payment.amount} ${payment.currency}.`);
    // What was received goes back: the service never keeps money it did not ask for.
    if (state.amount > 0 && payment.status === 'pending') {
      await refundPayment(trx, ctx, scope, { payment: { ...failed.payment, amount: state.amount }, amount: state.amount, reason: 'amount_mismatch', countedOnOrder: false });
    }
    return failed;
  }
  const previous = payment.status;
  const succeeded = await updatePayment(trx, scope, payment.id, {
    status: 'succeeded',
    failure_code: null,
    failure_message: null,
    provider_receipt: receipt,
    settled_at: at,
    next_check_at: null,
    next_action: null,
    // Before the order's product hears of it: a subscription's activation reads whether the card was kept.
    ...(state.savedMethod && { saved_method_sealed: sealSavedMethod(ctx, payment.id, state.savedMethod) }),
  });
  const { late } = await paymentTarget().paymentSucceeded(trx, ctx, scope, succeeded);
  const final = late ? await updatePayment(trx, scope, payment.id, { late: true }) : succeeded;
  await emitEvent(trx, scope, { type: 'payments.payment.succeeded', subject: final.id, object: serializePayment(final), previousAttributes: { status: previous } });
  return { payment: final, outcome: 'succeeded' };
}

async function fail(trx: Transaction<DB>, scope: Scope, payment: PaymentRow, code: string, message: string | null) {
  const updated = await updatePayment(trx, scope, payment.id, {
    status: 'failed',
    failure_code: code,
    failure_message: message,
    provider_receipt: payment.provider_receipt,
    settled_at: new Date(),
    next_check_at: null,
    next_action: null,
  });
  await emitEvent(trx, scope, { type: 'payments.payment.failed', subject: updated.id, object: serializePayment(updated), previousAttributes: { status: payment.status } });
  return { payment: updated, outcome: 'failed' as const };
}
