/**
 * What a payment provider adapter offers the payments service. Adapters live in `providers/<type>/` and know
 * one provider's API; the service knows none. Every amount is an integer in the currency's minor unit; every
 * call may throw `ProviderError` (and nothing else on purpose).
 */

export const PROVIDER_TYPES = ['simulated', 'mpesa', 'paystack', 'stripe'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];
/** The providers a tenant configures; `simulated` is the test-mode default and has no configuration. */
export type ConfigurableProviderType = Exclude<ProviderType, 'simulated'>;

export type PaymentMethod = 'mobile_money' | 'card';

/** The stable failure codes of a payment (products-api § 1.3); clients read an unknown code as `declined`. */
export type PaymentFailureCode =
  | 'insufficient_funds'
  | 'declined'
  | 'cancelled_by_user'
  | 'timeout'
  | 'invalid_pin'
  | 'subscriber_busy'
  | 'amount_mismatch'
  | 'provider_error';

export type RefundFailureCode = 'refunds_unavailable' | 'insufficient_balance' | 'provider_error' | 'declined';

/** What the buyer must do next for a pending attempt. */
export type NextAction =
  | { type: 'confirm_on_phone'; phone_hint: string; expires_at: string }
  | { type: 'redirect'; url: string };

/** A configuration as an adapter receives it: its non-secret account fields and its unsealed secrets. */
export interface ProviderCredentials {
  /** The `ppc_` id (or `null` for the simulator). */
  configId: string | null;
  livemode: boolean;
  /** Non-secret identifiers (M-Pesa shortcode, till, initiator name; Stripe account id once learnt). */
  account: Record<string, string | null>;
  /** Secret values by field name (`consumer_key`, `secret_key`, …); never logged, returned or put in an error. */
  secrets: Record<string, string>;
}

/** What the server passes every adapter: where the provider lives (env `*_API_URL`, else its real host) and time. */
export interface ProviderEnvironment {
  /** Base URL of the provider's API, without a trailing slash. */
  apiUrl: string;
  now: () => Date;
}

export interface StartPaymentInput {
  /** The `pay_` id; adapters derive references from it (Paystack: `_` → `-`; Stripe `client_reference_id`). */
  paymentId: string;
  /** The order's `code`: M-Pesa's `AccountReference`. */
  orderCode: string;
  amount: number;
  currency: string;
  method: PaymentMethod;
  /** E.164 phone for `mobile_money`; the card number in test mode only (the simulator). */
  phone: string | null;
  cardNumber: string | null;
  email: string | null;
  /** A short text for the payer's statement. */
  description: string;
  /** The inbound address of this attempt (M-Pesa: carries the attempt's token; others ignore it). */
  callbackUrl: string;
  /** The checkout page's return address (Paystack `callback_url`, Stripe `success_url`/`cancel_url`). */
  returnUrl: string;
  /** When the order stops waiting; a hosted page should not outlive it by much. */
  expiresAt: Date;
  /** Keep the card for off-session charges (a subscription that renews): Stripe's `setup_future_usage`. */
  saveCard?: boolean;
}

/**
 * A card the provider keeps for charges without the payer (Stripe: `customer` and `payment_method`; Paystack:
 * a reusable `authorization_code` and the `email` it belongs to). Sealed at rest; never returned or logged.
 */
export type SavedMethod = Record<string, string>;

export interface ChargeSavedInput {
  /** The `pay_` id of this charge (Paystack's reference). */
  paymentId: string;
  amount: number;
  currency: string;
  saved: SavedMethod;
  /** The same key for a repeated attempt (`renewal:{order}:{attempt}`): the provider charges once. */
  idempotencyKey: string;
}

/** A final or pending state, as the provider itself reports it. */
export type ProviderPaymentState =
  | { status: 'pending' }
  /**
   * `amount`/`currency`: what the provider says was received (the service checks them against the attempt);
   * an answer that carries no amount (Daraja's STK Query) reports the attempt's own.
   */
  | { status: 'succeeded'; amount: number; currency: string; providerReceipt: string | null; savedMethod?: SavedMethod | null }
  | { status: 'failed'; failureCode: PaymentFailureCode; failureMessage: string | null }
  /** The provider's attempt is over without money (a Stripe session expired, an abandoned Paystack page). */
  | { status: 'cancelled' };

export type StartPaymentResult =
  | { providerReference: string; state: { status: 'pending' }; nextAction: NextAction | null }
  /** Settled at once (the simulator, or a provider that refused the attempt synchronously). */
  | { providerReference: string | null; state: Exclude<ProviderPaymentState, { status: 'pending' }>; nextAction: null };

/** The payment attempt as the service knows it, for queries, cancels and refunds. */
export interface AttemptRef {
  paymentId: string;
  providerReference: string | null;
  providerReceipt: string | null;
  amount: number;
  currency: string;
  method: PaymentMethod;
  /** What the simulator kept of the payer (last four digits), to replay its magic values. */
  payerHint: string | null;
}

/** The raw inbound request, before any parsing: the signature covers these bytes. */
export interface InboundRequest {
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  /** The per-operation token of the address, when there is one (M-Pesa); the service has already matched it. */
  token: string | null;
  /** What the token was made for: Daraja's results do not say whether they answer a reversal or a B2C payment. */
  subject?: 'payment' | 'refund' | 'payout' | null;
}

/**
 * A verified notification. It is only a hint: the service re-reads the provider's state (`queryPayment`,
 * `queryRefund`) before granting value.
 */
export interface InboundNotification {
  /** Unique per configuration: the inbox's key (Daraja: `CheckoutRequestID` plus result code). */
  providerEventId: string;
  kind: 'payment' | 'refund' | 'payout' | 'other';
  /** The `provider_reference` of the payment or refund it is about, or `null` for `other`. */
  reference: string | null;
  /** The state the notification claims, and a receipt if it carries one (M-Pesa's `MpesaReceiptNumber`). */
  hint: ProviderPaymentState | RefundState | PayoutState | null;
  providerReceipt: string | null;
}

export type InboundResult = InboundNotification | { refused: 'unauthenticated' | 'malformed'; message: string };

export interface RefundInput {
  /** The `re_` id. */
  refundId: string;
  payment: AttemptRef;
  amount: number;
  currency: string;
  /** The inbound address of this operation (M-Pesa reversal result); others ignore it. */
  callbackUrl: string;
}

export type RefundState =
  | { status: 'pending' }
  | { status: 'succeeded' }
  | { status: 'failed'; failureCode: RefundFailureCode; failureMessage: string | null };

/** A payout's end as the provider tells it: paid with the provider's receipt, or failed. */
export type PayoutState = { status: 'paid'; reference: string } | { status: 'failed'; code: string; message: string };

export interface PayoutInput {
  /** The `po_` id: Daraja's `OriginatorConversationID`, echoed in the result and asked about by Transaction Status. */
  payoutId: string;
  phone: string;
  amount: number;
  currency: string;
  /** The payout's own inbound address (result and queue timeout). */
  callbackUrl: string;
}

export interface RefundResult {
  providerReference: string | null;
  state: RefundState;
}

/** Non-secret facts learnt while verifying (Stripe's `account_id`), merged into the configuration's `account`. */
export interface VerifiedAccount {
  account: Record<string, string | null>;
}

export interface PaymentProvider {
  readonly type: ProviderType;
  /** Starts one attempt. A refusal of the payment itself is a `failed` state, not an error. */
  startPayment(input: StartPaymentInput): Promise<StartPaymentResult>;
  /** The provider's current answer for an attempt (STK Query, Paystack verify, Stripe retrieve). */
  queryPayment(attempt: AttemptRef): Promise<ProviderPaymentState>;
  /** Gives a pending attempt up at the provider where it can be (Stripe: expire the session); else a no-op. */
  cancelPayment(attempt: AttemptRef): Promise<void>;
  /** Checks and parses an inbound request; never throws for bad input, answers `refused` instead. */
  parseNotification(request: InboundRequest): InboundResult;
  refund(input: RefundInput): Promise<RefundResult>;
  /**
   * The provider's current answer for a refund, or `null` when it cannot say now. M-Pesa reversals have no
   * synchronous status call: given `callbackUrl`, the adapter asks Daraja's Transaction Status, whose result
   * comes to that address as a notification; without one it only answers `null`.
   */
  queryRefund(refund: { refundId: string; providerReference: string | null; payment: AttemptRef; callbackUrl?: string }): Promise<RefundState | null>;
  /**
   * Sends money to a phone (M-Pesa B2C); the result comes to `callbackUrl`. Answers the provider's reference
   * once it accepted the request. Absent where the provider pays nothing out.
   */
  payout?(input: PayoutInput): Promise<{ providerReference: string }>;
  /** Asks the provider to post a payout's result to `callbackUrl` again (M-Pesa: Transaction Status). */
  queryPayout?(input: { payoutId: string; callbackUrl: string }): Promise<void>;
  /**
   * Charges a saved card without the payer (automatic renewal), confirmed with the provider before it answers
   * `succeeded`; a decline is a `failed` state. Absent where the provider keeps no cards (M-Pesa).
   */
  chargeSaved?(input: ChargeSavedInput): Promise<StartPaymentResult>;
  /** Tries the credentials with a harmless call (OAuth token, a read). */
  verifyCredentials(): Promise<VerifiedAccount>;
}

/** Why a provider call did not give an answer. */
export type ProviderErrorKind =
  /** The provider refused the credentials: `422 payment_credentials_invalid`, or a `failing` configuration. */
  | 'credentials'
  /** Timeout, connection refused, 5xx, 429: retried with backoff; `502 provider_unavailable` to a caller. */
  | 'unavailable'
  /** Any other refusal of the request (a 4xx that is not about credentials). */
  | 'rejected';

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly detail: {
      /** The configuration field at fault, for `credentials` (`consumer_secret`, `secret_key`). */
      param?: string;
      reason?: 'rejected' | 'wrong_mode' | 'malformed';
      /** The provider's HTTP status, when there was one. */
      status?: number;
    } = {},
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** The static description of a provider type: its fields and capabilities, and how to make an adapter. */
export interface ProviderDefinition {
  readonly type: ProviderType;
  readonly methods: readonly PaymentMethod[];
  /** Names of the sealed, write-only fields (`consumer_key`, `secret_key`, `webhook_secret`, …). */
  readonly secretFields: readonly string[];
  /** Names of the non-secret account fields a tenant sets (`shortcode`, `till_number`, …). */
  readonly accountFields: readonly string[];
  /** Whether an inbound address carries a per-operation token (M-Pesa). */
  readonly tokenizedCallbacks: boolean;
  /** The base URL to use when the `*_API_URL` variable is unset. */
  defaultApiUrl(livemode: boolean): string;
  /** Form checks done without calling the provider (key prefixes and mode); a problem is `credentials`/`malformed` or `wrong_mode`. */
  checkForm(credentials: ProviderCredentials): ProviderError | null;
  capabilities(account: Record<string, string | null>): { refunds: boolean; payouts: boolean; automatic_renewal: boolean };
  /** Whether this provider can take this amount at all (M-Pesa: KES in whole shillings). */
  accepts(amount: number, currency: string): boolean;
  create(credentials: ProviderCredentials, env: ProviderEnvironment): PaymentProvider;
}
