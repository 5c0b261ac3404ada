/** An answer the API refused, with the spec's error fields. */
export class SvcBrowserError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | null = null,
    readonly requestId: string | null = null,
  ) {
    super(message);
    this.name = 'SvcBrowserError';
  }
}

/** The request never reached the API, or its answer never came back. */
export class SvcNetworkError extends Error {
  constructor(readonly cause: unknown) {
    super(`Network error: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'SvcNetworkError';
  }
}

export interface CallOptions {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: unknown;
  /** A customer token (with the publishable key) or, without a key, a signed-in person's access token. */
  token?: string;
  keepalive?: boolean;
  /** Sent only where a repeat could do something twice (a session open); heartbeats and ends are idempotent by nature. */
  idempotencyKey?: string;
}

export const uuid = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

export async function call<T>(baseUrl: string, publishableKey: string | null, o: CallOptions): Promise<T> {
  let response: Response;
  try {
    response = await fetch(baseUrl + o.path, {
      method: o.method,
      keepalive: o.keepalive,
      headers: {
        ...(publishableKey ? { 'Svc-Publishable-Key': publishableKey } : {}),
        ...(o.token ? { Authorization: `Bearer ${o.token}` } : {}),
        'Content-Type': 'application/json',
        ...(o.idempotencyKey ? { 'Idempotency-Key': o.idempotencyKey } : {}),
      },
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
  } catch (e) {
    throw new SvcNetworkError(e);
  }
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = {};
  }
  if (!response.ok) {
    const e = json.error ?? {};
    throw new SvcBrowserError(response.status, e.code ?? `http_${response.status}`, e.message ?? response.statusText, e.details ?? null, e.request_id ?? null);
  }
  return json.data as T;
}
