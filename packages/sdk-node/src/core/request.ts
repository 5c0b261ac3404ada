import { connectionError, errorFromResponse, SvcError } from './errors';

/** Where the client connects and how it retries; the same for every credential. */
export interface ConnectionOptions {
  baseUrl?: string;
  /** Retries after `429`, `500`, `502`, `503` and network errors. Default 2. */
  maxRetries?: number;
  /** Per attempt. Default 60 000. */
  timeoutMs?: number;
  /** For tests and non-Node runtimes. */
  fetch?: typeof fetch;
}

/** A tenant's server: a secret (`sk_…`) or restricted (`rk_…`) key. */
export interface ApiKeyCredential {
  apiKey: string;
  accessToken?: never;
  tenant?: never;
}

/**
 * A signed-in member of the tenant (an organizer's own tools): their identity access token, sent as
 * `Authorization: Bearer`. A function is called before every request, so it can hand over a refreshed token
 * (access tokens last 15 minutes); `null` (signed out) throws before the call. The member's roles decide what they may do (`403 missing_permission`).
 */
export interface AccessTokenCredential {
  accessToken: string | (() => string | null | Promise<string | null>);
  /** The tenant's code or `ten_` id, sent as `Svc-Tenant`; the server refuses a token of another tenant (`401 tenant_mismatch`). */
  tenant?: string;
  apiKey?: never;
}

export type ClientOptions = ConnectionOptions & (ApiKeyCredential | AccessTokenCredential);

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
    if (!options.apiKey && !options.accessToken) throw new Error('Svc: apiKey or accessToken is required');
    if (options.apiKey && options.accessToken) throw new Error('Svc: give apiKey or accessToken, not both');
    this.baseUrl = (options.baseUrl ?? 'http://127.0.0.1:4000').replace(/\/+$/, '');
    // Looked up per call, so fetch interceptors installed later (msw in tests) see the SDK's requests.
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** The bearer: the API key, or the member's access token (asked for again on every call when it is a function). */
  private async credential(): Promise<string> {
    const { apiKey, accessToken } = this.options;
    if (apiKey) return apiKey;
    const token = typeof accessToken === 'function' ? await accessToken() : accessToken;
    if (!token) throw new Error('Svc: not signed in (the accessToken function answered no token)');
    return token;
  }

  /** One call with retries; answers the parsed JSON body of the 2xx response. */
  async request<T>(req: RawRequest, opts: RequestOptions = {}): Promise<T> {
    const maxRetries = opts.maxRetries ?? this.options.maxRetries ?? 2;
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs ?? 60_000;
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${await this.credential()}`,
      ...(this.options.tenant ? { 'svc-tenant': this.options.tenant } : {}),
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
