import type Stripe from 'stripe';
import { STRIPE_URL } from '../../../../boot/payments-config';
import { ProviderError, type InboundResult, type SavedMethod, type PaymentProvider, type ProviderCredentials, type ProviderDefinition, type ProviderPaymentState, type RefundState } from '../../provider';
import { call, chargeResult, formError, secretOf, toProviderError, type AdapterEnvironment } from '../adapter-kit';
import { isProviderError } from '../provider-errors';
import { StripeClient, stripeFailureCode, stripeKeyMode, StripeWebhookRefused, verifyStripeWebhook } from './stripe-client';

const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : (v?.id ?? null));

/** The card a PaymentIntent set up for off-session use, with its customer; `null` when it kept none. */
function savedMethodOf(pi: Stripe.PaymentIntent | null, customer: string | null): SavedMethod | null {
  const paymentMethod = idOf(pi?.payment_method);
  const owner = idOf(pi?.customer) ?? customer;
  return pi?.setup_future_usage === 'off_session' && paymentMethod && owner ? { customer: owner, payment_method: paymentMethod } : null;
}

/** A session's state: paid, given up (expired), failed (an asynchronous method that failed), or still open. */
export function sessionState(s: Stripe.Checkout.Session): ProviderPaymentState {
  const pi = typeof s.payment_intent === 'object' ? s.payment_intent : null;
  if (s.status === 'complete' && (s.payment_status === 'paid' || s.payment_status === 'no_payment_required')) {
    const savedMethod = savedMethodOf(pi, idOf(s.customer));
    return { status: 'succeeded', amount: s.amount_total ?? 0, currency: (s.currency ?? '').toUpperCase(), providerReceipt: idOf(s.payment_intent), savedMethod };
  }
  if (s.status === 'complete' && pi?.status === 'requires_payment_method') {
    const e = pi.last_payment_error;
    return { status: 'failed', failureCode: stripeFailureCode(e?.decline_code, e?.code), failureMessage: e?.message ?? null };
  }
  if (s.status === 'expired') return { status: 'cancelled' };
  return { status: 'pending' };
}

/** An off-session PaymentIntent's state: `requires_action` off-session is a card that asks for the payer. */
export function intentState(pi: Stripe.PaymentIntent): ProviderPaymentState {
  if (pi.status === 'succeeded') return { status: 'succeeded', amount: pi.amount_received, currency: pi.currency.toUpperCase(), providerReceipt: pi.id };
  if (pi.status === 'processing') return { status: 'pending' };
  const e = pi.last_payment_error;
  return { status: 'failed', failureCode: stripeFailureCode(e?.decline_code, e?.code), failureMessage: e?.message ?? `The payment ${pi.status}.` };
}

export function refundState(r: Stripe.Refund): RefundState {
  if (r.status === 'succeeded') return { status: 'succeeded' };
  if (r.status === 'failed' || r.status === 'canceled') {
    return { status: 'failed', failureCode: r.failure_reason === 'insufficient_funds' ? 'insufficient_balance' : 'provider_error', failureMessage: r.failure_reason ?? null };
  }
  return { status: 'pending' };
}

/** A verified event: Checkout Session events are about a payment, refund events about a refund. */
function notificationOf(e: Stripe.Event): InboundResult {
  const base = { providerEventId: e.id, providerReceipt: null };
  switch (e.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const s = e.data.object;
      const hint: ProviderPaymentState = e.type === 'checkout.session.async_payment_failed' ? { status: 'failed', failureCode: 'declined', failureMessage: null } : sessionState(s);
      return { ...base, kind: 'payment', reference: s.id, hint, providerReceipt: idOf(s.payment_intent) };
    }
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed':
      return { ...base, kind: 'refund', reference: e.data.object.id, hint: refundState(e.data.object) };
    default:
      return { ...base, kind: 'other', reference: null, hint: null };
  }
}

function stripeProvider(credentials: ProviderCredentials, env: AdapterEnvironment): PaymentProvider {
  const secretKey = secretOf(credentials.secrets, 'secret_key');
  const client = new StripeClient({ baseUrl: env.apiUrl, secretKey, timeoutMs: env.http?.timeoutMs, maxNetworkRetries: env.http?.attempts === undefined ? undefined : Math.max(0, env.http.attempts - 1) });
  return {
    type: 'stripe',
    async startPayment(input) {
      if (input.method !== 'card') throw new ProviderError('rejected', 'Stripe serves cards only here.');
      try {
        const s = await client.createCheckoutSession(
          {
            clientReferenceId: input.paymentId,
            amount: input.amount,
            currency: input.currency,
            description: input.description,
            successUrl: input.returnUrl,
            cancelUrl: input.returnUrl,
            expiresAt: input.expiresAt,
            customerEmail: input.email,
            saveCard: input.saveCard,
            metadata: { payment: input.paymentId, order: input.orderCode },
            idempotencyKey: input.paymentId,
          },
          env.now(),
        );
        return { providerReference: s.id, state: { status: 'pending' }, nextAction: { type: 'redirect', url: s.url ?? '' } };
      } catch (err) {
        if (isProviderError(err, 'rejected')) return { providerReference: null, state: { status: 'failed', failureCode: 'provider_error', failureMessage: err.message }, nextAction: null };
        throw toProviderError(err, 'secret_key');
      }
    },

    async queryPayment(attempt) {
      if (!attempt.providerReference) throw new ProviderError('rejected', 'The attempt never reached Stripe.');
      // An off-session charge (renewal) is a PaymentIntent; a checkout is a session.
      if (attempt.providerReference.startsWith('pi_')) return intentState(await call('secret_key', () => client.retrievePaymentIntent(attempt.providerReference!)));
      return sessionState(await call('secret_key', () => client.retrieveCheckoutSession(attempt.providerReference!)));
    },

    async chargeSaved(input) {
      const { customer, payment_method: paymentMethod } = input.saved;
      if (!customer || !paymentMethod) throw new ProviderError('rejected', 'The saved card is not a Stripe payment method.');
      try {
        const pi = await client.createOffSessionPayment({ customer, paymentMethod, amount: input.amount, currency: input.currency, metadata: { payment: input.paymentId }, idempotencyKey: input.idempotencyKey });
        return chargeResult(pi.id, intentState(pi));
      } catch (err) {
        // A card error (`card_declined`, `authentication_required`: the bank wants the payer) fails this attempt.
        if (isProviderError(err, 'rejected')) {
          const code = err.providerCode ?? null;
          return { providerReference: null, state: { status: 'failed', failureCode: stripeFailureCode(code, code), failureMessage: `Stripe declined the saved card${code ? ` (${code})` : ''}.` }, nextAction: null };
        }
        throw toProviderError(err, 'secret_key');
      }
    },

    async cancelPayment(attempt) {
      if (!attempt.providerReference) return;
      try {
        await client.expireCheckoutSession(attempt.providerReference);
      } catch (err) {
        // A session already complete or expired cannot be expired; the query tells which.
        if (!isProviderError(err, 'rejected')) throw toProviderError(err, 'secret_key');
      }
    },

    parseNotification(request) {
      let event: Stripe.Event;
      try {
        event = verifyStripeWebhook(request.rawBody, request.headers['stripe-signature'], secretOf(credentials.secrets, 'webhook_secret'));
      } catch (err) {
        if (err instanceof StripeWebhookRefused) return { refused: 'unauthenticated', message: err.message };
        return { refused: 'malformed', message: 'The body is not a Stripe event.' };
      }
      return notificationOf(event);
    },

    async refund(input) {
      try {
        const paymentIntent = input.payment.providerReceipt ?? idOf((await client.retrieveCheckoutSession(input.payment.providerReference ?? '')).payment_intent);
        if (!paymentIntent) throw new ProviderError('rejected', 'The Stripe session has no payment to refund.');
        const r = await client.createRefund({ paymentIntent, amount: input.amount, metadata: { refund: input.refundId }, idempotencyKey: input.refundId });
        return { providerReference: r.id, state: refundState(r) };
      } catch (err) {
        if (err instanceof ProviderError) throw err;
        if (isProviderError(err, 'rejected')) return { providerReference: null, state: { status: 'failed', failureCode: 'provider_error', failureMessage: err.message } };
        throw toProviderError(err, 'secret_key');
      }
    },

    async queryRefund(refund) {
      if (!refund.providerReference) return null;
      return refundState(await call('secret_key', () => client.retrieveRefund(refund.providerReference!)));
    },

    async verifyCredentials() {
      const account = await call('secret_key', () => client.retrieveAccount());
      return { account: { account_id: account.id } };
    },
  };
}

export const stripeDefinition: ProviderDefinition = {
  type: 'stripe',
  methods: ['card'],
  secretFields: ['secret_key', 'webhook_secret'],
  accountFields: [],
  tokenizedCallbacks: false,
  defaultApiUrl: () => STRIPE_URL,
  checkForm({ livemode, secrets }) {
    const mode = stripeKeyMode(secrets.secret_key ?? '');
    if (!mode) return formError('secret_key', 'malformed', 'A Stripe key starts sk_test_, sk_live_, rk_test_ or rk_live_.');
    if ((mode === 'live') !== livemode) return formError('secret_key', 'wrong_mode', `A ${mode} key cannot serve ${livemode ? 'live' : 'test'} mode.`);
    if (!/^whsec_\S{8,}$/.test(secrets.webhook_secret ?? '')) return formError('webhook_secret', 'malformed', 'A Stripe webhook secret starts whsec_.');
    return null;
  },
  capabilities: () => ({ refunds: true, payouts: false, automatic_renewal: true }),
  // The currency is passed on; Stripe's refusal fails the payment with provider_error.
  accepts: (amount) => Number.isInteger(amount) && amount > 0,
  create: (credentials, env) => stripeProvider(credentials, env),
};
