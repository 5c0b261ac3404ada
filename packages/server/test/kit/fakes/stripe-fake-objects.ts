import { randomBytes } from 'node:crypto';
import type { FakeAnswer } from './fake-provider';

export const STRIPE_SECRET_KEY = 'sk_test_fake0stripe0secret0key0123456789';
export const STRIPE_LIVE_SECRET_KEY = 'sk_live_fake0stripe0secret0key0123456789';
export const STRIPE_WEBHOOK_SECRET = 'whsec_fake0stripe0webhook0secret01234';
export const API_VERSION = '2026-10-28.endive';
export const ACCOUNT = { id: 'acct_1FakeSvcTest0001', object: 'account', business_profile: { name: 'Svc test' }, charges_enabled: true, country: 'KE', default_currency: 'kes', type: 'standard' };

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Stripe's error body. */
export const stripeError = (status: number, type: string, message: string, param?: string, code?: string): FakeAnswer => ({
  status,
  body: { error: { type, message, ...(param && { param }), ...(code && { code }), doc_url: 'https://stripe.com/docs/error-codes' } },
  headers: { 'request-id': id('req') },
});
export const missing = (what: string, which: string) => stripeError(404, 'invalid_request_error', `No such ${what}: '${which}'`, 'id', 'resource_missing');

/** Whether a request's `expand[]` names a field. */
export const expands = (p: Record<string, unknown>, field: string) => Array.isArray(p.expand) && p.expand.includes(field);

export interface FakeSession {
  id: string;
  amount: number;
  currency: string;
  clientReferenceId: string | null;
  customerEmail: string | null;
  successUrl: string;
  cancelUrl: string | null;
  expiresAt: number;
  metadata: Record<string, string>;
  intentMetadata: Record<string, string>;
  saveCard: boolean;
  url: string;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'unpaid' | 'paid';
  intent: FakeIntent | null;
}

export interface FakeIntent {
  id: string;
  amount: number;
  currency: string;
  customer: string | null;
  paymentMethod: string | null;
  card: string;
  metadata: Record<string, string>;
  /** `off_session` when the card is kept for charges without the payer (a Checkout Session's `setup_future_usage`). */
  setupFutureUsage: 'off_session' | null;
  status: 'requires_payment_method' | 'succeeded';
  lastError: { code: string; decline_code: string; message: string } | null;
  refunded: number;
}

export interface FakeRefund {
  id: string;
  intent: FakeIntent;
  amount: number;
  metadata: Record<string, string>;
  status: 'pending' | 'succeeded' | 'failed';
  failureReason: string | null;
}

/** The fake's objects, and how Stripe shows them. */
export class StripeFakeState {
  readonly sessions = new Map<string, FakeSession>();
  readonly intents = new Map<string, FakeIntent>();
  readonly refunds = new Map<string, FakeRefund>();
  readonly methods = new Map<string, { id: string; customer: string; card: string }>();

  addSession(s: Omit<FakeSession, 'id' | 'url' | 'status' | 'paymentStatus' | 'intent'> & { url: (id: string) => string }): FakeSession {
    const sid = id('cs_test');
    const session: FakeSession = { ...s, id: sid, url: s.url(sid), status: 'open', paymentStatus: 'unpaid', intent: null };
    this.sessions.set(sid, session);
    return session;
  }

  addIntent(i: Omit<FakeIntent, 'id' | 'status' | 'lastError' | 'refunded' | 'setupFutureUsage'> & { setupFutureUsage?: 'off_session' | null }): FakeIntent {
    const intent: FakeIntent = { setupFutureUsage: null, ...i, id: id('pi'), status: 'requires_payment_method', lastError: null, refunded: 0 };
    this.intents.set(intent.id, intent);
    return intent;
  }

  /** The session's PaymentIntent for a card tried on its page; a saved card gets a customer and a payment method. */
  intentFor(session: FakeSession, card: string): FakeIntent {
    if (!session.intent) {
      const setupFutureUsage = session.saveCard ? ('off_session' as const) : null;
      session.intent = this.addIntent({ amount: session.amount, currency: session.currency, customer: null, paymentMethod: null, card, metadata: session.intentMetadata, setupFutureUsage });
    }
    const pi = session.intent;
    pi.card = card;
    pi.paymentMethod = id('pm');
    if (session.saveCard) {
      pi.customer ??= id('cus');
      this.methods.set(pi.paymentMethod, { id: pi.paymentMethod, customer: pi.customer, card });
    }
    return pi;
  }

  addRefund(intent: FakeIntent, amount: number, metadata: Record<string, string>): FakeRefund {
    const r: FakeRefund = { id: id('re'), intent, amount, metadata, status: 'pending', failureReason: null };
    this.refunds.set(r.id, r);
    return r;
  }

  sessionView(s: FakeSession, expandIntent: boolean) {
    return {
      id: s.id,
      object: 'checkout.session',
      amount_subtotal: s.amount,
      amount_total: s.amount,
      cancel_url: s.cancelUrl,
      client_reference_id: s.clientReferenceId,
      created: s.expiresAt - 24 * 3600,
      currency: s.currency,
      customer: s.intent?.customer ?? null,
      customer_email: s.customerEmail,
      expires_at: s.expiresAt,
      livemode: false,
      metadata: s.metadata,
      mode: 'payment',
      payment_intent: s.intent ? (expandIntent ? this.intentView(s.intent) : s.intent.id) : null,
      payment_status: s.paymentStatus,
      status: s.status,
      success_url: s.successUrl,
      url: s.status === 'open' ? s.url : null,
    };
  }

  intentView(i: FakeIntent) {
    return {
      id: i.id,
      object: 'payment_intent',
      amount: i.amount,
      amount_received: i.status === 'succeeded' ? i.amount : 0,
      currency: i.currency,
      customer: i.customer,
      last_payment_error: i.lastError && { type: 'card_error', ...i.lastError },
      latest_charge: i.status === 'succeeded' ? `ch_${i.id.slice(3)}` : null,
      livemode: false,
      metadata: i.metadata,
      payment_method: i.paymentMethod,
      setup_future_usage: i.setupFutureUsage,
      status: i.status,
    };
  }

  refundView(r: FakeRefund) {
    return { id: r.id, object: 'refund', amount: r.amount, currency: r.intent.currency, payment_intent: r.intent.id, metadata: r.metadata, status: r.status, failure_reason: r.failureReason, created: Math.floor(Date.now() / 1000) };
  }
}
