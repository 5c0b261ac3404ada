import { ProviderError, type ProviderEnvironment, type ProviderPaymentState, type StartPaymentResult } from '../provider';
import { PaymentProviderError } from './provider-errors';
import type { ProviderHttpOptions } from './provider-http';

/**
 * What the M-Pesa, Paystack and Stripe adapters read from their environment besides `apiUrl` and `now`:
 * Safaricom's certificate for the mode (`mpesaSecurityCertificate(livemode, config)`), and timeouts and
 * retries (tests shorten them). All optional.
 */
export interface AdapterEnvironment extends ProviderEnvironment {
  securityCertificate?: string | null;
  http?: Partial<ProviderHttpOptions>;
}

/** A client's error as the payments service takes it; `param` names the configuration field a refusal is about. */
export function toProviderError(err: unknown, param: string): Error {
  if (!(err instanceof PaymentProviderError)) return err instanceof Error ? err : new Error(String(err));
  const status = err.status ?? undefined;
  if (err.kind === 'credentials_refused') return new ProviderError('credentials', err.message, { param, reason: 'rejected', status });
  if (err.kind === 'unavailable') return new ProviderError('unavailable', err.message, { status });
  return new ProviderError('rejected', err.message, { status });
}

/** Runs a client call, turning its errors into `ProviderError`s. */
export async function call<T>(param: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toProviderError(err, param);
  }
}

/** A secret as the adapter needs it; a missing one is the configuration's fault, named by its field. */
export function secretOf(secrets: Record<string, string>, field: string): string {
  const v = secrets[field];
  if (!v) throw new ProviderError('credentials', `The configuration has no ${field}.`, { param: field, reason: 'malformed' });
  return v;
}

/** A form problem of a configuration: `malformed`, or a key of the other mode (`wrong_mode`). */
export const formError = (param: string, reason: 'malformed' | 'wrong_mode', message: string) => new ProviderError('credentials', message, { param, reason });

/** A charge the provider answered at once (an off-session card), as `startPayment` answers it. */
export const chargeResult = (providerReference: string, state: ProviderPaymentState): StartPaymentResult =>
  state.status === 'pending' ? { providerReference, state, nextAction: null } : { providerReference, state, nextAction: null };
