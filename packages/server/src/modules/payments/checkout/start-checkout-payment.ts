import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { newId } from '../../../core/ids';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { DB } from '../../../db/schema';
import { nextCheckAt } from '../attempts/check-schedule';
import { findPayment, recordPayment as insertPayment, type PaymentRow } from '../attempts/payment-rows.service';
import { settlePayment } from '../attempts/settle-payment';
import { ProviderError, type NextAction, type PaymentMethod, type ProviderPaymentState, type StartPaymentResult } from '../provider';
import { normalizeMpesaPhone } from '../providers/mpesa/mpesa-phone';
import { providerOfConfig, simulatedProvider } from '../providers/provider-for';
import { payerHint } from '../providers/simulated/simulator';
import { markConfigFailing } from '../provider-configs/provider-configs.service';
import { callbackAddress } from '../inbound/callback-address';
import { methodServer } from './checkout-methods';
import { savedMethodOf } from '../attempts/saved-methods';

/** Daraja fails a second prompt to a phone whose first is unanswered: a newer attempt waits this long. */
const PROMPT_IN_PROGRESS_MS = 120_000;

export interface CheckoutAttempt {
  checkoutSessionId: string;
  orderId: string;
  /** The order's `code`: M-Pesa's `AccountReference`. */
  orderCode: string;
  organizationId: string;
  customerId: string | null;
  amount: number;
  currency: string;
  email: string | null;
  description: string;
  /** When the order stops waiting; a hosted page should not outlive it by much. */
  expiresAt: Date;
  method: PaymentMethod;
  phone: string | null;
  idempotencyKey: string | null;
  /** The checkout page's return address (Paystack `callback_url`, Stripe `success_url`/`cancel_url`). */
  returnUrl: string;
  /** Keep the card for off-session charges (the first order of a subscription that renews). */
  saveCard?: boolean;
  /** Charge the card kept by this `pay_` without the payer (automatic renewal), at its configuration. */
  savedFrom?: string | null;
  /** The caller's checks under its own lock of the session (open, order payable), in the attempt's transaction. */
  lockSession: (trx: Transaction<DB>) => Promise<void>;
}

const invalid = (param: string, message: string) => ApiError.of('validation_failed', { param, message, details: { [param]: [message] } });

/**
 * Starts a checkout payment at the configured provider (products-api § 1.3), in three steps so that no
 * provider call holds a lock: (1) under the caller's session lock, the attempt is recorded `pending` (or a
 * retry with the same `Idempotency-Key` finds its attempt; a prompt under 120 s old is `409 payment_in_progress`);
 * (2) the provider is asked, with the attempt's inbound address; (3) its reference and next action are stored,
 * or its refusal fails the attempt. Reconciliation asks about the attempt from then on, whatever the answer.
 */
export async function startCheckoutPayment(ctx: AppContext, scope: Scope, a: CheckoutAttempt): Promise<{ payment: PaymentRow; nextAction: NextAction | null }> {
  const saved = a.savedFrom ? await savedMethodOf(ctx, scope, a.savedFrom) : null;
  const config = saved ? saved.config : (await methodServer(ctx, scope, a.organizationId, a.method, a.amount, a.currency)).config;
  // Only a simulator card kept in test mode is charged without a configuration.
  if (!config && !saved) throw new Error('startCheckoutPayment serves configured providers only');
  const provider = config ? providerOfConfig(ctx, config) : simulatedProvider(ctx);
  if (saved && !provider.chargeSaved) throw ApiError.of('payment_method_unavailable', { param: 'method', message: 'The provider keeps no cards.' });
  let phone: string | null = null;
  if (config?.type === 'mpesa') {
    phone = a.phone ? normalizeMpesaPhone(a.phone) : null;
    if (!phone) throw invalid('phone', 'M-Pesa needs a Kenyan mobile number, e.g. +254712345678.');
  }
  const replayOf = async (db: Executor) => {
    if (!a.idempotencyKey) return undefined;
    const same = await scoped(db, scope).selectFrom('payments').selectAll().where('checkout_session_id', '=', a.checkoutSessionId).where('idempotency_key', '=', a.idempotencyKey).executeTakeFirst();
    if (same && same.method !== a.method) throw ApiError.of('idempotency_key_reused', { message: 'This Idempotency-Key started an attempt by another method.' });
    return same;
  };
  const earlier = await replayOf(ctx.db);
  if (earlier) return answerOf(earlier);
  const begun = await ctx.db.transaction().execute(async (trx) => {
    await a.lockSession(trx);
    // The session's lock orders two requests with one key: the second finds the first's attempt.
    const same = await replayOf(trx);
    if (same) return { payment: same, replay: true };
    const prompting = await scoped(trx, scope)
      .selectFrom('payments')
      .select('id')
      .where('checkout_session_id', '=', a.checkoutSessionId)
      .where('method', '=', 'mobile_money')
      .where('status', '=', 'pending')
      .where('created_at', '>', new Date(Date.now() - PROMPT_IN_PROGRESS_MS))
      .executeTakeFirst();
    if (prompting) throw ApiError.of('payment_in_progress', { details: { payment: prompting.id } });
    const payment = await insertPayment(trx, scope, {
      id: newId('payment'),
      orderId: a.orderId,
      checkoutSessionId: a.checkoutSessionId,
      organizationId: a.organizationId,
      customerId: a.customerId,
      method: a.method,
      amount: a.amount,
      currency: a.currency,
      status: 'pending',
      failureCode: null,
      payerHint: phone ? payerHint(phone) : (saved?.payerHint ?? null),
      provider: config?.type ?? 'simulated',
      providerConfigId: config?.id ?? null,
      // Asked about even if this process stops before the provider answers.
      nextCheckAt: nextCheckAt(new Date(), 0),
      idempotencyKey: a.idempotencyKey,
    });
    return { payment, replay: false };
  });
  if (begun.replay) return answerOf(begun.payment);

  const payment = begun.payment;
  let result: StartPaymentResult;
  try {
    const callbackUrl = config ? await callbackAddress(ctx, ctx.db, scope, { configId: config.id, providerType: config.type, operation: { payment: payment.id } }) : '';
    result = saved
      ? await provider.chargeSaved!({ paymentId: payment.id, amount: a.amount, currency: a.currency, saved: saved.saved, idempotencyKey: a.idempotencyKey ?? payment.id })
      : await provider.startPayment({
          paymentId: payment.id,
          orderCode: a.orderCode,
          amount: a.amount,
          currency: a.currency,
          method: a.method,
          phone: phone ?? a.phone,
          cardNumber: null,
          email: a.email,
          description: a.description,
          callbackUrl,
          returnUrl: a.returnUrl,
          expiresAt: a.expiresAt,
          saveCard: a.saveCard,
        });
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    ctx.log.warn({ payment: payment.id, kind: err.kind, err: err.message }, 'a provider did not start a checkout payment');
    if (err.kind === 'credentials' && config) await markConfigFailing(ctx, config.id, err.message);
    const message = err.kind === 'unavailable' ? 'The payment provider did not answer; try again.' : err.message;
    result = { providerReference: null, state: { status: 'failed', failureCode: 'provider_error', failureMessage: message }, nextAction: null };
  }
  return recordStart(ctx, scope, payment, result);
}

/** Stores what the provider answered to the start; a settled answer goes through the one settlement path. */
async function recordStart(ctx: AppContext, scope: Scope, payment: PaymentRow, result: StartPaymentResult): Promise<{ payment: PaymentRow; nextAction: NextAction | null }> {
  if (result.providerReference) {
    await scoped(ctx.db, scope).updateTable('payments').set({ provider_reference: result.providerReference, updated_at: new Date() }).where('id', '=', payment.id).where('provider_reference', 'is', null).execute();
  }
  if (result.state.status === 'pending') {
    // A notification may have settled it meanwhile: the next action belongs to a payment still pending.
    await scoped(ctx.db, scope)
      .updateTable('payments')
      .set({ next_action: result.nextAction ? JSON.stringify(result.nextAction) : null, updated_at: new Date() })
      .where('id', '=', payment.id)
      .where('status', '=', 'pending')
      .execute();
  } else {
    await settlePayment(ctx, scope, payment.id, result.state as ProviderPaymentState);
  }
  return answerOf((await findPayment(ctx.db, scope, payment.id))!);
}

const answerOf = (payment: PaymentRow) => ({ payment, nextAction: payment.status === 'pending' ? ((payment.next_action as NextAction | null) ?? null) : null });
