import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { EventEnvelope } from '@svc/contract';
import { afterEach, expect } from 'vitest';
import { bearer, createTestServer, type TestServer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';

export type Tenant = Awaited<ReturnType<TestServer['tenant']>>;

export { expectError, expectStatus };

/** A server's requests with a secret or restricted key. */
export function server(t: TestServer, key: string) {
  const auth = bearer(key);
  return {
    get: (path: string) => t.http().get(path).set(auth),
    post: (path: string, body?: object, headers: Record<string, string> = {}) => {
      const req = t.http().post(path).set(auth).set(headers);
      return body === undefined ? req : req.send(body);
    },
    delete: (path: string) => t.http().delete(path).set(auth),
  };
}

/** A browser's requests: publishable key and customer token, from a page on `origin` when given. */
export function browser(t: TestServer, publishableKey: string, token: string | undefined, origin?: string) {
  const headers: Record<string, string> = { 'Svc-Publishable-Key': publishableKey };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (origin) headers.origin = origin;
  return {
    post: (path: string, body?: object) => {
      const req = t.http().post(path).set(headers);
      return body === undefined ? req : req.send(body);
    },
    delete: (path: string) => t.http().delete(path).set(headers),
  };
}

export const now = (t: TestServer) => (t.ctx.clock ? t.ctx.clock() : new Date());

/** Moves the server's clock to `at` (or by `ms` from where it is). */
export function setClock(t: TestServer, at: Date) {
  t.ctx.clock = () => new Date(at);
}
export const advance = (t: TestServer, ms: number) => setClock(t, new Date(now(t).getTime() + ms));

export interface TokenOptions {
  sub?: unknown;
  aud?: unknown;
  iat?: number | null;
  exp?: number | null;
  nbf?: number;
  ctry?: unknown;
  kid?: string | null;
  alg?: string;
}

/** A customer token signed with an HS256 key secret, claims relative to the server's clock. */
export async function signToken(t: TestServer, key: { id: string; secret: string }, o: TokenOptions = {}) {
  const nowS = Math.floor(now(t).getTime() / 1000);
  const claims: Record<string, unknown> = { sub: 'viewer-1', aud: 'svc', iat: nowS, exp: nowS + 600 };
  for (const name of ['sub', 'aud', 'iat', 'exp', 'nbf', 'ctry'] as const) {
    if (name in o) {
      if (o[name] === null) delete claims[name];
      else claims[name] = o[name];
    }
  }
  const header: Record<string, unknown> = { alg: o.alg ?? 'HS256', typ: 'JWT' };
  if (o.kid !== null) header.kid = o.kid ?? key.id;
  return new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(new TextEncoder().encode(key.secret));
}

export async function createTokenKey(t: TestServer, secretKey: string, name = 'web') {
  return expectStatus(await server(t, secretKey).post('/v1/access/customer_token_keys', { name }), 201).data as {
    id: string;
    secret: string;
  } & Record<string, unknown>;
}

export async function createStream(t: TestServer, secretKey: string, body: object = {}) {
  return expectStatus(await server(t, secretKey).post('/v1/streams/live_streams', body), 201).data as Record<string, any>;
}

export async function grant(t: TestServer, secretKey: string, body: Record<string, unknown>, status = 201) {
  const res = await server(t, secretKey).post('/v1/access/entitlements', body, { 'Idempotency-Key': randomUUID() });
  return expectStatus(res, status).data as Record<string, any>;
}

/** Test servers here answer many requests a second from one client. */
const ACCESS_ENV = { SVC_RATE_LIMIT_PUBLIC: '100000' };
export const createAccessTestServer = () => createTestServer(ACCESS_ENV);

/** The file's test server, with the clock put back after every test. */
export function useAccessTestServer(): TestServer {
  const t = useTestServer(ACCESS_ENV);
  afterEach(() => {
    t.ctx.clock = undefined;
  });
  return t;
}

/** `POST /v1/access/entitlements` with a fresh Idempotency-Key (or the one given, or none with `null`). */
export const postEntitlement = (t: TestServer, sk: string, body: object, key: string | null = randomUUID()) =>
  server(t, sk).post('/v1/access/entitlements', body, key ? { 'Idempotency-Key': key } : {});

/** A tenant whose keys are not rate-limited within a test's bursts. */
export async function tenant(t: TestServer, products?: Parameters<TestServer['tenant']>[1]): Promise<Tenant> {
  const created = await t.tenant('Acme', products);
  const res = await t
    .http()
    .patch(`/v1/operator/tenants/${created.tenant.id}`)
    .set(t.operator)
    .send({ rate_limits: { secret: 100000, publishable: 100000 } });
  expectStatus(res, 200);
  return created;
}

/** A tenant with a live stream (signed playback id), a customer token key and a token for `viewer-1`. */
export async function viewerSetup(t: TestServer, products?: Parameters<TestServer['tenant']>[1]) {
  const created = await tenant(t, products);
  const sk = created.keys.test.secret;
  const stream = await createStream(t, sk);
  const key = await createTokenKey(t, sk);
  const token = await signToken(t, key);
  return { tenant: created, sk, pk: created.keys.test.publishable, stream, key, token };
}

/** The path and query of a playback link (the test server has no port of its own). */
export const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

export const open = (t: TestServer, sk: string, body: object) => server(t, sk).post('/v1/access/sessions', body);

/** The tenant's events of a subject, in the order they were recorded. */
export async function eventsOf(t: TestServer, tenantId: string, subject: string) {
  const rows = await t.ctx.db
    .selectFrom('event_log')
    .select('envelope')
    .where('tenant_id', '=', tenantId)
    .where('subject', '=', subject)
    .orderBy('id')
    .execute();
  return rows.map((r) => JSON.parse(r.envelope) as EventEnvelope);
}

/** A tenant, a live stream and an entitlement of `customer` to it with `limits`. */
export async function entitled(t: TestServer, limits: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const s = await viewerSetup(t);
  const entitlement = await grant(t, s.sk, { customer: 'viewer-1', resource: { type: 'ls', id: s.stream.id }, limits, ...extra });
  const openFor = (device: string, body: Record<string, unknown> = {}) =>
    open(t, s.sk, { resource: s.stream.id, customer: 'viewer-1', device_id: device, ...body });
  const heartbeat = (id: string) => server(t, s.sk).post(`/v1/access/sessions/${id}/heartbeat`);
  const end = (id: string) => server(t, s.sk).delete(`/v1/access/sessions/${id}`);
  return { ...s, entitlement, openFor, heartbeat, end };
}

export const sessionRow = (t: TestServer, id: string) =>
  t.ctx.db.selectFrom('access_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

export const activeSessions = async (t: TestServer, entitlementId: string) =>
  (
    await t.ctx.db
      .selectFrom('access_sessions')
      .select(['id', 'device_id'])
      .where('entitlement_id', '=', entitlementId)
      .where('state', '=', 'active')
      .orderBy('created_at')
      .execute()
  ).map((r) => r.device_id);
