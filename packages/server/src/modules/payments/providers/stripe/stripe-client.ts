import Stripe from 'stripe';
import { PaymentProviderError, redact } from '../provider-errors';

/** The API version every request names, so that a change of the account's default changes nothing here. */
export const STRIPE_API_VERSION = '2026-10-28.endive' satisfies Stripe.LatestApiVersion;

export interface StripeSettings {
  /** `paymentProviderBaseUrl('stripe', …)`: https://api.stripe.com unless pointed elsewhere (host, port, protocol). */
  baseUrl: string;
  /** `sk_test_…`, `sk_live_…`, or a restricted `rk_…` key. */
  secretKey: string;
  timeoutMs?: number;
  /** The SDK's own retries (with an idempotency key on every POST); default 2. */
  maxNetworkRetries?: number;
}

/** The key's mode from its prefix, or `null` for a value that is not a Stripe secret or restricted key. */
export function stripeKeyMode(secretKey: string): 'test' | 'live' | null {
  const m = /^(?:sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/.exec(secretKey);
  return m ? (m[1] as 'test' | 'live') : null;
}

/** The official SDK, pinned to `STRIPE_API_VERSION` and pointed at `baseUrl`. */
export function stripeSdk(settings: StripeSettings): Stripe {
  const url = new URL(settings.baseUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(settings.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
    timeout: settings.timeoutMs ?? 15_000,
    maxNetworkRetries: settings.maxNetworkRetries ?? 2,
    telemetry: false,
  });
}

/** A card failure in the design's words: insufficient funds where Stripe says so, else declined. */
export const stripeFailureCode = (declineCode: string | null | undefined, code?: string | null): 'insufficient_funds' | 'declined' =>
  declineCode === 'insufficient_funds' || code === 'insufficient_funds' ? 'insufficient_funds' : 'declined';

/** Maps the SDK's errors to the payments product's, without the key. */
export function stripeError(err: unknown, what: string, secretKey: string): PaymentProviderError {
  if (!(err instanceof Stripe.errors.StripeError)) {
    return new PaymentProviderError('stripe', 'unavailable', `Stripe could not be reached for ${what}.`);
  }
  const said = redact(err.message ?? '', [secretKey]);
  const code = err.decline_code ?? err.code ?? null;
  switch (err.type) {
    case 'StripeAuthenticationError':
    case 'StripePermissionError':
      return new PaymentProviderError('stripe', 'credentials_refused', `Stripe refused the key for ${what}: ${said}`, err.statusCode ?? null, code);
    case 'StripeConnectionError':
    case 'StripeAPIError':
    case 'StripeRateLimitError':
      return new PaymentProviderError('stripe', 'unavailable', `Stripe failed for ${what}${err.statusCode ? ` (${err.statusCode})` : ''}: ${said}`, err.statusCode ?? null, code);
    default:
      if (err.statusCode === 404 || err.code === 'resource_missing') return new PaymentProviderError('stripe', 'not_found', `Stripe found nothing for ${what}: ${said}`, 404, code);
      if ((err.statusCode ?? 0) >= 500) return new PaymentProviderError('stripe', 'unavailable', `Stripe failed for ${what} (${err.statusCode}): ${said}`, err.statusCode ?? null, code);
      return new PaymentProviderError('stripe', 'rejected', `Stripe refused ${what}: ${said}`, err.statusCode ?? null, code);
  }
}

export interface CheckoutSessionInput {
  clientReferenceId: string;
  amount: number;
  /** ISO 4217; sent in lower case as Stripe writes it. */
  currency: string;
  description: string;
  successUrl: string;
  cancelUrl: string;
  /** Clamped to Stripe's window: at least 30 minutes and at most 24 hours from now. */
  expiresAt: Date;
  customerEmail?: string | null;
  /** Keep the card for off-session renewals (`setup_future_usage: off_session`). */
  saveCard?: boolean;
  metadata?: Record<string, string>;
  idempotencyKey: string;
}

export interface OffSessionPaymentInput {
  customer: string;
  paymentMethod: string;
  amount: number;
  currency: string;
  metadata?: Record<string, string>;
  idempotencyKey: string;
}

/**
 * Stripe through its SDK, the calls the payments product makes: Checkout Sessions, off-session
 * PaymentIntents, refunds and the account. Every error is a `PaymentProviderError`.
 */
export class StripeClient {
  readonly sdk: Stripe;

  constructor(private readonly settings: StripeSettings) {
    this.sdk = stripeSdk(settings);
  }

  private async run<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw stripeError(err, what, this.settings.secretKey);
    }
  }

  createCheckoutSession(input: CheckoutSessionInput, now = new Date()): Promise<Stripe.Checkout.Session> {
    const min = now.getTime() + 30 * 60_000 + 5_000;
    const max = now.getTime() + 24 * 3600_000 - 5_000;
    const expires = Math.floor(Math.min(max, Math.max(min, input.expiresAt.getTime())) / 1000);
    const metadata = input.metadata ?? {};
    return this.run('the checkout session', () =>
      this.sdk.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: input.clientReferenceId,
          line_items: [{ quantity: 1, price_data: { currency: input.currency.toLowerCase(), unit_amount: input.amount, product_data: { name: input.description } } }],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          expires_at: expires,
          ...(input.customerEmail && { customer_email: input.customerEmail }),
          ...(input.saveCard && { customer_creation: 'always' as const }),
          payment_intent_data: { metadata, ...(input.saveCard && { setup_future_usage: 'off_session' as const }) },
          metadata,
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
  }

  /** The session with its PaymentIntent expanded: this, not a webhook, decides a payment. */
  retrieveCheckoutSession(id: string): Promise<Stripe.Checkout.Session> {
    return this.run(`the checkout session ${id}`, () => this.sdk.checkout.sessions.retrieve(id, { expand: ['payment_intent'] }));
  }

  expireCheckoutSession(id: string): Promise<Stripe.Checkout.Session> {
    return this.run(`the checkout session ${id}`, () => this.sdk.checkout.sessions.expire(id));
  }

  /** Charges a saved card without the buyer (renewals); a decline is a `rejected` error with its decline code. */
  createOffSessionPayment(input: OffSessionPaymentInput): Promise<Stripe.PaymentIntent> {
    return this.run('the off-session payment', () =>
      this.sdk.paymentIntents.create(
        { amount: input.amount, currency: input.currency.toLowerCase(), customer: input.customer, payment_method: input.paymentMethod, off_session: true, confirm: true, metadata: input.metadata ?? {} },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
  }

  retrievePaymentIntent(id: string): Promise<Stripe.PaymentIntent> {
    return this.run(`the payment intent ${id}`, () => this.sdk.paymentIntents.retrieve(id));
  }

  createRefund(input: { paymentIntent: string; amount?: number; metadata?: Record<string, string>; idempotencyKey: string }): Promise<Stripe.Refund> {
    return this.run('the refund', () =>
      this.sdk.refunds.create({ payment_intent: input.paymentIntent, ...(input.amount !== undefined && { amount: input.amount }), metadata: input.metadata ?? {} }, { idempotencyKey: input.idempotencyKey }),
    );
  }

  retrieveRefund(id: string): Promise<Stripe.Refund> {
    return this.run(`the refund ${id}`, () => this.sdk.refunds.retrieve(id));
  }

  /** The account of the key: proves it, and gives the `account_id` the configuration shows. */
  retrieveAccount(): Promise<Stripe.Account> {
    return this.run('the account', () => this.sdk.accounts.retrieveCurrent());
  }
}

/** Why a Stripe webhook was refused. */
export class StripeWebhookRefused extends Error {}

/**
 * Checks `Stripe-Signature` (`t=…,v1=…`: HMAC-SHA256 of `t.body` with the endpoint's secret, at most
 * `toleranceSeconds` old) with the SDK's `webhooks.constructEvent`, and answers the event.
 */
export function verifyStripeWebhook(rawBody: Buffer | string, signature: string | string[] | undefined, webhookSecret: string, toleranceSeconds = 300): Stripe.Event {
  if (typeof signature !== 'string' || !signature) throw new StripeWebhookRefused('No Stripe-Signature header.');
  try {
    return Stripe.webhooks.constructEvent(rawBody, signature, webhookSecret, toleranceSeconds);
  } catch (err) {
    throw new StripeWebhookRefused(err instanceof Error ? redact(err.message, [webhookSecret]) : 'The signature does not match.');
  }
}
