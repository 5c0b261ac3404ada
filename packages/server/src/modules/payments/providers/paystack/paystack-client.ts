import { PaymentProviderError } from '../provider-errors';
import { DEFAULT_HTTP_OPTIONS, providerRequest, unavailable, type ProviderHttpOptions, type ProviderResponse } from '../provider-http';
import type {
  ChargeAuthorizationInput,
  InitializedTransaction,
  InitializeInput,
  PaystackRefund,
  PaystackSettings,
  PaystackTransaction,
  RefundInput,
} from './paystack-types';

/** Paystack's envelope: `{status, message, data}`; `status: false` with a message on a refusal. */
interface Envelope<T> {
  status?: boolean;
  message?: string;
  data?: T;
}

/** The key's mode from its prefix, or `null` for a value that is not a Paystack secret key. */
export function paystackKeyMode(secretKey: string): 'test' | 'live' | null {
  const m = /^sk_(test|live)_[A-Za-z0-9]{8,}$/.exec(secretKey);
  return m ? (m[1] as 'test' | 'live') : null;
}

/** A card failure in the design's words: insufficient funds where Paystack says so, else declined. */
export const paystackFailureCode = (gatewayResponse: string | null | undefined): 'insufficient_funds' | 'declined' =>
  /insufficient/i.test(gatewayResponse ?? '') ? 'insufficient_funds' : 'declined';

interface RawTransaction {
  id: number;
  status: PaystackTransaction['status'];
  reference: string;
  amount: number;
  currency: string;
  gateway_response?: string | null;
  paid_at?: string | null;
  channel?: string | null;
  authorization?: { authorization_code?: string; reusable?: boolean; last4?: string | null; channel?: string | null } | null;
  customer?: { email?: string | null } | null;
}

const transactionOf = (t: RawTransaction): PaystackTransaction => ({
  id: t.id,
  status: t.status,
  reference: t.reference,
  amount: Number(t.amount),
  currency: t.currency,
  gatewayResponse: t.gateway_response ?? null,
  paidAt: t.paid_at ?? null,
  channel: t.channel ?? null,
  authorization: t.authorization?.authorization_code
    ? { authorizationCode: t.authorization.authorization_code, reusable: Boolean(t.authorization.reusable), last4: t.authorization.last4 ?? null, channel: t.authorization.channel ?? null }
    : null,
  customerEmail: t.customer?.email ?? null,
});

interface RawRefund {
  id: number;
  status: PaystackRefund['status'];
  amount: number | string;
  currency: string;
  transaction?: { reference?: string } | number | null;
}

const refundOf = (r: RawRefund): PaystackRefund => ({
  id: r.id,
  status: r.status,
  amount: Number(r.amount),
  currency: r.currency,
  transactionReference: typeof r.transaction === 'object' && r.transaction ? (r.transaction.reference ?? null) : null,
});

/**
 * Paystack's API, the calls the payments product makes: initialize, verify, charge an authorization, refund,
 * and a balance read that proves the key. A bearer secret key; errors are `PaymentProviderError`s without it.
 */
export class PaystackClient {
  private readonly http: ProviderHttpOptions;
  private readonly base: string;

  constructor(private readonly settings: PaystackSettings) {
    this.http = { ...DEFAULT_HTTP_OPTIONS, ...settings.http };
    this.base = settings.baseUrl.replace(/\/+$/, '');
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body: unknown, idempotent: boolean, what: string): Promise<T> {
    const res = await providerRequest(
      'paystack',
      { method, url: `${this.base}${path}`, headers: { authorization: `Bearer ${this.settings.secretKey}` }, body, idempotent },
      this.http,
      [this.settings.secretKey],
    );
    const env = (res.json ?? {}) as Envelope<T>;
    if (res.status >= 200 && res.status < 300 && env.status === true && env.data !== undefined) return env.data;
    throw this.failure(res, env.message ?? '', what);
  }

  private failure(res: ProviderResponse, said: string, what: string): PaymentProviderError {
    // A 403 is a refusal of the request (an unsupported currency), not of the key.
    if (res.status === 401 || /invalid key/i.test(said)) {
      return new PaymentProviderError('paystack', 'credentials_refused', `Paystack refused the secret key for ${what}: ${said || res.status}`, res.status);
    }
    if (res.status >= 500 || res.status === 429) return unavailable('paystack', res, said);
    if (res.status === 404 || /not found/i.test(said)) return new PaymentProviderError('paystack', 'not_found', `Paystack found nothing for ${what}: ${said || res.status}`, res.status);
    if (res.status >= 200 && res.status < 300) return new PaymentProviderError('paystack', 'unavailable', `Paystack's answer to ${what} was not understood.`, res.status);
    return new PaymentProviderError('paystack', 'rejected', `Paystack refused ${what}: ${said || res.status}`, res.status);
  }

  /** Opens a transaction; the buyer pays on `authorizationUrl` and returns to `callbackUrl`. */
  async initializeTransaction(input: InitializeInput): Promise<InitializedTransaction> {
    if (!/^[A-Za-z0-9.=-]+$/.test(input.reference)) throw new RangeError('a Paystack reference takes only letters, digits, -, . and =');
    const data = await this.call<{ authorization_url: string; access_code: string; reference: string }>(
      'POST',
      '/transaction/initialize',
      {
        email: input.email,
        amount: input.amount,
        currency: input.currency,
        reference: input.reference,
        callback_url: input.callbackUrl,
        ...(input.channels && { channels: input.channels }),
        ...(input.metadata && { metadata: input.metadata }),
      },
      // Tried once: after a lost answer, a second try would be refused as a duplicate reference.
      false,
      'the transaction',
    );
    return { authorizationUrl: data.authorization_url, accessCode: data.access_code, reference: data.reference };
  }

  /** The transaction as Paystack has it now: this, not a webhook, decides a payment. */
  async verifyTransaction(reference: string): Promise<PaystackTransaction> {
    return transactionOf(await this.call<RawTransaction>('GET', `/transaction/verify/${encodeURIComponent(reference)}`, undefined, true, `the transaction ${reference}`));
  }

  /** Charges a saved card (renewals). Tried once: a retry could charge twice. */
  async chargeAuthorization(input: ChargeAuthorizationInput): Promise<PaystackTransaction> {
    const data = await this.call<RawTransaction>(
      'POST',
      '/transaction/charge_authorization',
      { email: input.email, amount: input.amount, currency: input.currency, authorization_code: input.authorizationCode, reference: input.reference, ...(input.metadata && { metadata: input.metadata }) },
      false,
      'the charge',
    );
    return transactionOf(data);
  }

  /** Asks for a refund; it settles later (`refund.processed` / `refund.failed`, or `fetchRefund`). */
  async createRefund(input: RefundInput): Promise<PaystackRefund> {
    const data = await this.call<RawRefund>(
      'POST',
      '/refund',
      { transaction: input.transaction, ...(input.amount !== undefined && { amount: input.amount }), ...(input.currency && { currency: input.currency }), ...(input.merchantNote && { merchant_note: input.merchantNote }) },
      false,
      'the refund',
    );
    return refundOf(data);
  }

  async fetchRefund(id: number | string): Promise<PaystackRefund> {
    return refundOf(await this.call<RawRefund>('GET', `/refund/${encodeURIComponent(String(id))}`, undefined, true, `the refund ${id}`));
  }

  /** A read-only call that proves the key (verification on create and on a changed secret). */
  async checkCredentials(): Promise<{ balances: Array<{ currency: string; balance: number }> }> {
    return { balances: await this.call<Array<{ currency: string; balance: number }>>('GET', '/balance', undefined, true, 'the balance') };
  }
}
