/** The providers a client speaks to. */
export type PaymentProviderName = 'mpesa' | 'paystack' | 'stripe';

/**
 * Why a provider call did not do its work:
 * - `unavailable`: a timeout, a network fault, a 5xx or a rate limit; the provider may work later (`retryable`);
 * - `credentials_refused`: the provider refused the stored credentials (the configuration is `failing`);
 * - `rejected`: the provider refused this request (a bad phone, an unknown reference); the same request fails again;
 * - `not_found`: the object asked about does not exist at the provider;
 * - `not_configured`: the service lacks what the call needs (Safaricom's certificate for an initiator).
 */
export type ProviderErrorKind = 'unavailable' | 'credentials_refused' | 'rejected' | 'not_found' | 'not_configured';

/**
 * One error class for every provider client. `message` is safe for logs and for a `422`'s `details.reason`:
 * it is built from the provider's own words with every secret of the call removed. `providerCode` is the
 * provider's code when it gave one (Daraja `errorCode`, Stripe `code`/`decline_code`).
 */
export class PaymentProviderError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly provider: PaymentProviderName,
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status: number | null = null,
    readonly providerCode: string | null = null,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
    this.retryable = kind === 'unavailable';
  }
}

export const isProviderError = (err: unknown, kind?: ProviderErrorKind): err is PaymentProviderError =>
  err instanceof PaymentProviderError && (kind === undefined || err.kind === kind);

/** Removes every secret (and its base64 and URL-encoded forms) from a text that may reach a log or a caller. */
export function redact(text: string, secrets: ReadonlyArray<string | undefined | null>): string {
  let out = text;
  for (const s of secrets) {
    if (!s || s.length < 4) continue;
    for (const form of [s, Buffer.from(s).toString('base64'), encodeURIComponent(s)]) out = out.split(form).join('[redacted]');
  }
  return out;
}
