import { setTimeout as sleep } from 'node:timers/promises';
import { VideoNetworkRejection, VideoNetworkStorageExhausted } from '../video-network';

/** The provider's public API; tests and the opt-in suite's proxies point elsewhere. */
export const DEFAULT_API_BASE_URL = 'https://api.cloudflare.com/client/v4';

/** How the adapter talks to the API: where, how long to wait, and how to back off. */
export interface ProviderApiOptions {
  baseUrl: string;
  /** Per attempt. */
  timeoutMs: number;
  /** Tries in all for a request that is safe to repeat (GET, PUT, DELETE). */
  attempts: number;
  /** The first wait; it doubles, with jitter, up to 8 s. */
  backoffMs: number;
}

export const DEFAULT_API_OPTIONS: ProviderApiOptions = { baseUrl: DEFAULT_API_BASE_URL, timeoutMs: 10_000, attempts: 3, backoffMs: 500 };

/** An error the provider reported in its envelope: `{success: false, errors: [{code, message}]}`. */
export interface ProviderErrorItem {
  code: number;
  message: string;
}

/**
 * Error codes by which the provider refuses for want of storage (the account's minutes are used up). Any
 * refusal whose message speaks of storage or quota counts too: the provider words these in several ways.
 */
const STORAGE_CODES = new Set([10011]);
const STORAGE_WORDS = /storage|quota|capacity|minutes? (limit|exceeded)/i;

/** A fault worth another try: the provider is down, slow or overloaded, not refusing. */
export class ProviderFault extends Error {
  constructor(message: string, readonly status: number | null) {
    super(message);
    this.name = 'ProviderFault';
  }
}

/** The object asked about does not exist on the account (a refusal, `422`, unless the caller expects it). */
export class ProviderNotFound extends VideoNetworkRejection {}

/** Maps the provider's answer to the adapter's errors: refusal, storage, or fault (`502`). */
function errorOf(status: number, errors: ProviderErrorItem[]): Error {
  const message = errors.map((e) => e.message).join('; ') || `status ${status}`;
  if (status >= 500 || status === 429) return new ProviderFault(`The video account's API failed (${status}): ${message}`, status);
  if (errors.some((e) => STORAGE_CODES.has(e.code)) || STORAGE_WORDS.test(message)) {
    return new VideoNetworkStorageExhausted(`The video account has no storage left: ${message}`);
  }
  if (status === 404) return new ProviderNotFound(`The video account has no such object: ${message}`);
  if (status === 401 || status === 403) {
    return new VideoNetworkRejection(`The video account refused the credentials (${status}): ${message}`);
  }
  return new VideoNetworkRejection(`The video account refused the request: ${message}`);
}

/**
 * One account's API: bearer token, the provider's JSON envelope, and retries with backoff (0.5 s doubling,
 * with jitter) for requests that are safe to repeat. A `POST` is tried once: a retry could make a second
 * live input or video, so its failure goes back to the caller as `502`, which the caller may retry.
 */
export class ProviderApi {
  constructor(
    readonly accountId: string,
    private readonly token: string,
    private readonly options: ProviderApiOptions,
  ) {}

  /** `path` is below `/accounts/{account_id}`. */
  account<T>(method: string, path: string, body?: unknown): Promise<T> {
    return this.request<T>(method, `/accounts/${encodeURIComponent(this.accountId)}${path}`, body);
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const tries = method === 'POST' ? 1 : this.options.attempts;
    let wait = this.options.backoffMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once<T>(method, path, body);
      } catch (err) {
        if (!(err instanceof ProviderFault) || attempt >= tries) throw err;
        await sleep(wait / 2 + Math.random() * (wait / 2));
        wait = Math.min(wait * 2, 8000);
      }
    }
  }

  private async once<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.options.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      const why = err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : 'could not be reached';
      throw new ProviderFault(`The video account's API ${why}.`, null);
    }
    const text = await res.text().catch(() => '');
    let parsed: { success?: boolean; errors?: ProviderErrorItem[]; result?: T } | undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!res.ok || parsed?.success === false) {
      // A deletion of what is already gone has done its work.
      if (res.status === 404 && method === 'DELETE') return undefined as T;
      throw errorOf(res.status, Array.isArray(parsed?.errors) ? parsed.errors : []);
    }
    if (text && parsed === undefined) throw new ProviderFault('The video account\'s API answered something other than JSON.', res.status);
    return parsed?.result as T;
  }
}
