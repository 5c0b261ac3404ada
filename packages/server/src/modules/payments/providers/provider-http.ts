import { setTimeout as sleep } from 'node:timers/promises';
import { PaymentProviderError, redact, type PaymentProviderName } from './provider-errors';

/** How a client talks to its provider: how long one attempt may take, and how a safe request is retried. */
export interface ProviderHttpOptions {
  /** Per attempt. */
  timeoutMs: number;
  /** Tries in all for a request that is safe to repeat (a read, a query). */
  attempts: number;
  /** The first wait; it doubles, with jitter, up to 8 s. */
  backoffMs: number;
}

export const DEFAULT_HTTP_OPTIONS: ProviderHttpOptions = { timeoutMs: 15_000, attempts: 3, backoffMs: 500 };

export interface ProviderRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  /** A request the provider may see twice without harm; only these are retried after a fault. */
  idempotent: boolean;
  /** A 5xx that is an answer, not a fault (Daraja's "being processed"): not retried. */
  isAnswer?: (res: ProviderResponse) => boolean;
}

export interface ProviderResponse {
  status: number;
  json: unknown;
  text: string;
}

/**
 * One JSON request with the timeout, and retries with backoff for a safe request that met a fault (network,
 * timeout, 5xx, 429). An unsafe request (an STK push, a charge) is tried once: a retry could charge twice.
 * Every other answer goes back to the caller to read in its provider's words.
 */
export async function providerRequest(
  provider: PaymentProviderName,
  req: ProviderRequest,
  options: ProviderHttpOptions,
  secrets: ReadonlyArray<string | undefined>,
): Promise<ProviderResponse> {
  const tries = req.idempotent ? Math.max(1, options.attempts) : 1;
  let wait = options.backoffMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await once(provider, req, options, secrets);
      const fault = (res.status >= 500 || res.status === 429) && !req.isAnswer?.(res);
      // After the last try a fault goes back too: the caller reads it in its provider's words.
      if (!fault || attempt >= tries) return res;
    } catch (err) {
      if (!(err instanceof PaymentProviderError) || attempt >= tries) throw err;
    }
    await sleep(wait / 2 + Math.random() * (wait / 2));
    wait = Math.min(wait * 2, 8000);
  }
}

async function once(provider: PaymentProviderName, req: ProviderRequest, options: ProviderHttpOptions, secrets: ReadonlyArray<string | undefined>): Promise<ProviderResponse> {
  let res: Response;
  try {
    res = await fetch(req.url, {
      method: req.method,
      headers: { accept: 'application/json', ...(req.body !== undefined && { 'content-type': 'application/json' }), ...req.headers },
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: 'error',
    });
  } catch (err) {
    const why = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError') ? 'timed out' : 'could not be reached';
    throw new PaymentProviderError(provider, 'unavailable', `The ${provider} API ${why}.`);
  }
  let text: string;
  try {
    text = await res.text();
  } catch {
    throw new PaymentProviderError(provider, 'unavailable', `The ${provider} API timed out.`, res.status);
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text: redact(text.slice(0, 500), secrets) };
}

/** A 5xx or 429 that stayed one after the retries. */
export const unavailable = (provider: PaymentProviderName, res: ProviderResponse, said: string) =>
  new PaymentProviderError(provider, 'unavailable', `The ${provider} API failed (${res.status})${said ? `: ${said}` : '.'}`, res.status);
