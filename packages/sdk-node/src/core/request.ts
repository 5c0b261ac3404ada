import { connectionError, errorFromResponse, SvcError } from './errors';

export interface ClientOptions {
  /** A secret (`sk_…`) or restricted (`rk_…`) key. */
  apiKey: string;
  baseUrl?: string;
  /** Retries after `429`, `500`, `502`, `503` and network errors. Default 2. */
  maxRetries?: number;
  /** Per attempt. Default 60 000. */
  timeoutMs?: number;
  /** For tests and non-Node runtimes. */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  /**
   * Sent on POST, PATCH and DELETE; generated when omitted (except on heartbeats, which a repeat cannot do
   * twice), and the same on every retry.
   */
  idempotencyKey?: string;
  maxRetries?: number;
  timeoutMs?: number;
  headers?: Record<string, string>;
}

export interface RawRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  /** A write a repeat cannot do twice (the contract's `repeatable` metadata): no generated idempotency key. */
  repeatable?: boolean;
}

const RETRYABLE = new Set([429, 500, 502, 503]);
const MUTATING = new Set(['POST', 'PATCH', 'DELETE', 'PUT']);

/** `expand: ['a','b']` as `expand[]=a&expand[]=b`; `metadata: {k: v}` as `metadata[k]=v`. */
export function encodeQuery(query: Record<string, unknown> | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(`${key}[]`, String(v));
    else if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) if (v !== undefined) params.append(`${key}[${k}]`, String(v));
    } else params.append(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** Backoff 0.5 s doubling to 8 s with jitter, or what `Retry-After` asks for (capped at 60 s). */
export function retryDelayMs(attempt: number, retryAfter: string | null): number {
  const seconds = retryAfter ? Number(retryAfter) : NaN;
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds, 60) * 1000;
  const base = Math.min(500 * 2 ** attempt, 8000);
  return base * (0.75 + Math.random() * 0.25);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Transport {
  readonly baseUrl: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ClientOptions) {
    if (!options.apiKey) throw new Error('Svc: apiKey is required');
    this.baseUrl = (options.baseUrl ?? 'http://127.0.0.1:4000').replace(/\/+$/, '');
    // Looked up per call, so fetch interceptors installed later (msw in tests) see the SDK's requests.
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** One call with retries; answers the parsed JSON body of the 2xx response. */
  async request<T>(req: RawRequest, opts: RequestOptions = {}): Promise<T> {
    const maxRetries = opts.maxRetries ?? this.options.maxRetries ?? 2;
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs ?? 60_000;
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${this.options.apiKey}`,
      'user-agent': 'svc-sdk-node/0.1.0',
      ...opts.headers,
    };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    if (MUTATING.has(req.method) && (opts.idempotencyKey !== undefined || !req.repeatable)) {
      headers['idempotency-key'] = opts.idempotencyKey ?? crypto.randomUUID();
    }
    const url = `${this.baseUrl}${req.path}${encodeQuery(req.query)}`;
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);

    for (let attempt = 0; ; attempt++) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      let response: Response;
      try {
        response = await this.fetch(url, { method: req.method, headers, body, signal: controller.signal });
      } catch (cause) {
        clearTimeout(timer);
        if (attempt < maxRetries) {
          await sleep(retryDelayMs(attempt, null));
          continue;
        }
        throw connectionError(cause, controller.signal.aborted);
      }
      clearTimeout(timer);
      const text = await response.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = text;
      }
      if (response.ok) return parsed as T;
      if (RETRYABLE.has(response.status) && attempt < maxRetries) {
        await sleep(retryDelayMs(attempt, response.headers.get('retry-after')));
        continue;
      }
      throw errorFromResponse(response.status, response.headers, parsed);
    }
  }
}

export { SvcError };
