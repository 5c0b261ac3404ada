import { describe, expect, it } from 'vitest';
import { AuthenticationError, IdempotencyError, InvalidRequestError, PermissionError, RateLimitError, Svc, SvcError, ConnectionError } from '../src';
import { encodeQuery, retryDelayMs } from '../src/core/request';

type Call = { url: string; method: string; headers: Record<string, string>; body?: string };

/** A fetch that answers from a script and records every call. */
function scripted(...answers: Array<Response | Error | (() => Response)>) {
  const calls: Call[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), method: init?.method ?? 'GET', headers: Object.fromEntries(new Headers(init?.headers) as unknown as Iterable<[string, string]>), body: init?.body as string | undefined });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next() : next;
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const apiError = (status: number, type: string, code: string, extra: Record<string, unknown> = {}) =>
  json(status, { error: { type, code, message: `${code} happened`, param: null, details: null, request_id: 'req_1', doc_url: 'x', ...extra } }, { 'retry-after': '0' });
const key = { id: 'key_1', object: 'api_key' };

describe('retries', () => {
  it('retries 429, 500, 502, 503 and network errors with the same idempotency key', async () => {
    const { calls, fetch } = scripted(
      apiError(429, 'rate_limit_error', 'rate_limited'),
      apiError(500, 'api_error', 'internal_error'),
      new TypeError('socket hang up'),
      apiError(503, 'api_error', 'service_unavailable'),
      apiError(502, 'provider_error', 'provider_unavailable'),
      json(201, { data: key }),
    );
    const svc = new Svc({ apiKey: 'sk_test_x', fetch, maxRetries: 5 });
    const sleeps: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    globalThis.setTimeout = ((fn: () => void, ms?: number) => {
      if (ms !== undefined && ms < 60_000) sleeps.push(ms);
      return realSetTimeout(fn, 0);
    }) as typeof setTimeout;
    try {
      await expect(svc.keys.create({ type: 'publishable' })).resolves.toEqual(key);
    } finally {
      globalThis.setTimeout = realSetTimeout;
    }
    expect(calls).toHaveLength(6);
    const keys = new Set(calls.map((c) => c.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the caller\'s idempotency key', async () => {
    const { calls, fetch } = scripted(apiError(500, 'api_error', 'internal_error'), json(201, { data: key }));
    const svc = new Svc({ apiKey: 'sk_test_x', fetch });
    await svc.keys.create({ type: 'publishable' }, { idempotencyKey: 'mine-1' });
    expect(calls.map((c) => c.headers['idempotency-key'])).toEqual(['mine-1', 'mine-1']);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const { calls, fetch } = scripted(apiError(503, 'api_error', 'a'), apiError(503, 'api_error', 'b'), apiError(503, 'api_error', 'c'));
    const svc = new Svc({ apiKey: 'sk_test_x', fetch, maxRetries: 2 });
    await expect(svc.keys.list()).rejects.toMatchObject({ code: 'c', status: 503 });
    expect(calls).toHaveLength(3);
  });

  it('does not retry other 4xx', async () => {
    for (const [status, type, code] of [
      [400, 'invalid_request_error', 'invalid_request'],
      [409, 'idempotency_error', 'idempotency_key_reused'],
      [422, 'invalid_request_error', 'validation_failed'],
      [401, 'authentication_error', 'api_key_invalid'],
    ] as const) {
      const { calls, fetch } = scripted(apiError(status, type, code));
      await expect(new Svc({ apiKey: 'sk_test_x', fetch }).keys.list()).rejects.toMatchObject({ status, code });
      expect(calls).toHaveLength(1);
    }
  });

  it('sends no generated idempotency key on a heartbeat (a repeat cannot do it twice), but the caller\'s own', async () => {
    const session = { id: 'as_1', object: 'access_session' };
    const { calls, fetch } = scripted(json(200, { data: session }), json(200, { data: session }), json(201, { data: session }));
    const svc = new Svc({ apiKey: 'sk_test_x', fetch });
    await svc.access.sessions.heartbeat({ id: 'as_1' });
    await svc.access.sessions.heartbeat({ id: 'as_1' }, { idempotencyKey: 'mine-2' });
    await svc.access.sessions.open({ resource: 'ls_1', customer: 'c', device_id: 'd' });
    expect(calls[0]!.url).toMatch(/\/v1\/access\/sessions\/as_1\/heartbeat$/);
    expect(calls[0]!.headers['idempotency-key']).toBeUndefined();
    expect(calls[1]!.headers['idempotency-key']).toBe('mine-2');
    expect(calls[2]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends no generated key on the other requests a repeat cannot do twice: ending a session, an access check', async () => {
    const session = { id: 'as_1', object: 'access_session', state: 'ended' };
    const result = { allowed: true };
    const { calls, fetch } = scripted(json(200, { data: session }), json(200, { data: result }), json(200, { data: session }));
    const svc = new Svc({ apiKey: 'sk_test_x', fetch });
    await svc.access.sessions.end('as_1');
    await svc.access.checks.check({ customer: 'viewer-1', resource: { type: 'ls', id: 'ls_1' } });
    await svc.access.sessions.end('as_1', {}, { idempotencyKey: 'mine-3' });
    expect(calls.map((c) => [c.method, c.url.replace(/^.*\/v1\//, '/v1/'), c.headers['idempotency-key']])).toEqual([
      ['DELETE', '/v1/access/sessions/as_1', undefined],
      ['POST', '/v1/access/check', undefined],
      ['DELETE', '/v1/access/sessions/as_1', 'mine-3'],
    ]);
  });

  it('sends no idempotency key on reads', async () => {
    const { calls, fetch } = scripted(json(200, { data: key }));
    await new Svc({ apiKey: 'sk_test_x', fetch }).keys.retrieve({ id: 'key_1' });
    expect(calls[0]!.headers['idempotency-key']).toBeUndefined();
    expect(calls[0]!.headers.authorization).toBe('Bearer sk_test_x');
  });

  it('honours Retry-After, else backs off from 0.5 s doubling to 8 s with jitter', () => {
    expect(retryDelayMs(0, '3')).toBe(3000);
    expect(retryDelayMs(5, '0')).toBe(0);
    for (let attempt = 0; attempt < 8; attempt++) {
      const base = Math.min(500 * 2 ** attempt, 8000);
      const d = retryDelayMs(attempt, null);
      expect(d).toBeGreaterThanOrEqual(base * 0.75);
      expect(d).toBeLessThanOrEqual(base);
    }
  });

  it('times out an attempt and reports a connection error', async () => {
    const fetch = ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(new Error('aborted'))))) as unknown as typeof globalThis.fetch;
    const svc = new Svc({ apiKey: 'sk_test_x', fetch, timeoutMs: 20, maxRetries: 0 });
    const error = await svc.keys.list().then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'timeout', type: 'connection_error' });
  });
});

describe('errors', () => {
  it('carries every field and picks the subclass by type', async () => {
    const { fetch } = scripted(apiError(422, 'invalid_request_error', 'validation_failed', { param: 'name', details: { name: ['Too short'] } }));
    const error = (await new Svc({ apiKey: 'sk_test_x', fetch }).keys.create({ type: 'publishable' }).catch((e) => e)) as SvcError;
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ status: 422, type: 'invalid_request_error', code: 'validation_failed', param: 'name', details: { name: ['Too short'] }, requestId: 'req_1', message: 'validation_failed happened' });
  });

  it('maps a code it does not know by its type', async () => {
    for (const [status, type, Class] of [
      [401, 'authentication_error', AuthenticationError],
      [403, 'permission_error', PermissionError],
      [409, 'idempotency_error', IdempotencyError],
    ] as const) {
      const { fetch } = scripted(apiError(status, type, 'brand_new_code'));
      const error = (await new Svc({ apiKey: 'sk_test_x', fetch, maxRetries: 0 }).keys.list().catch((e) => e)) as SvcError;
      expect(error).toBeInstanceOf(Class);
      expect(error.code).toBe('brand_new_code');
    }
  });

  it('copes with a body that is not the error shape', async () => {
    const { fetch } = scripted(new Response('<html>bad gateway</html>', { status: 429, headers: { 'request-id': 'req_9', 'retry-after': '0' } }));
    const error = await new Svc({ apiKey: 'sk_test_x', fetch, maxRetries: 0 }).keys.list().catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'http_429', requestId: 'req_9' });
  });
});

describe('requests', () => {
  it('puts path parameters in the path and encodes expand and metadata in the query', async () => {
    const { calls, fetch } = scripted(json(200, { data: key }));
    await new Svc({ apiKey: 'sk_test_x', baseUrl: 'http://h:1/', fetch }).keys.retrieve({ id: 'key/1', expand: ['created_by', 'created_by.created_by'] });
    expect(calls[0]!.url).toBe('http://h:1/v1/keys/key%2F1?expand%5B%5D=created_by&expand%5B%5D=created_by.created_by');
    expect(encodeQuery({ metadata: { a: '1' }, limit: 5, skip: undefined })).toBe('?metadata%5Ba%5D=1&limit=5');
  });

  it('sends the body of writes as JSON', async () => {
    const { calls, fetch } = scripted(json(201, { data: key }));
    await new Svc({ apiKey: 'sk_test_x', fetch }).keys.create({ type: 'restricted', scopes: ['streams:read'] });
    expect(calls[0]).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:4000/v1/keys' });
    expect(JSON.parse(calls[0]!.body!)).toEqual({ type: 'restricted', scopes: ['streams:read'] });
    expect(calls[0]!.headers['content-type']).toBe('application/json');
  });

  it('refuses a call without its path parameter', async () => {
    const svc = new Svc({ apiKey: 'sk_test_x', fetch: scripted().fetch });
    await expect(svc.keys.retrieve({} as { id: string })).rejects.toThrow('`id` is required');
  });
});

describe("a member's access token", () => {
  const event = { id: 'evt_1', object: 'ticketed_event' };

  it('goes as the bearer, with the tenant in `Svc-Tenant`, instead of a key', async () => {
    const { calls, fetch } = scripted(json(201, { data: event }));
    const organizer = new Svc({ accessToken: 'eyJ.member.token', tenant: 'acme', fetch });
    await expect(organizer.events.create({ organization: 'org_1', name: 'Jazz Night', starts_at: '2030-01-01T18:00:00Z', ends_at: '2030-01-01T21:00:00Z' })).resolves.toEqual(event);
    expect(calls[0]!.headers).toMatchObject({ authorization: 'Bearer eyJ.member.token', 'svc-tenant': 'acme' });
  });

  it('asks a token function before every call, so a refreshed token goes out', async () => {
    const { calls, fetch } = scripted(json(200, { data: event }), json(200, { data: event }));
    let n = 0;
    const organizer = new Svc({ accessToken: async () => `eyJ.token.${++n}`, fetch });
    await organizer.events.retrieve('evt_1');
    await organizer.events.retrieve('evt_1');
    expect(calls.map((c) => c.headers.authorization)).toEqual(['Bearer eyJ.token.1', 'Bearer eyJ.token.2']);
    expect(calls[0]!.headers['svc-tenant']).toBeUndefined();
  });

  it('refuses to call when the token function answers none (signed out)', async () => {
    const { calls, fetch } = scripted();
    const organizer = new Svc({ accessToken: async () => null, fetch });
    await expect(organizer.events.retrieve('evt_1')).rejects.toThrow('not signed in');
    expect(calls).toHaveLength(0);
  });

  it('takes a key or a token, one of them', () => {
    expect(() => new Svc({} as never)).toThrow('apiKey or accessToken is required');
    expect(() => new Svc({ apiKey: 'sk_test_x', accessToken: 'eyJ.x.y' } as never)).toThrow('not both');
    // @ts-expect-error a key and a token together do not type-check
    expect(() => new Svc({ apiKey: 'sk_test_x', accessToken: 'eyJ.x.y' })).toThrow();
  });
});
