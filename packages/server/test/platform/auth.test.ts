import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type RouteAccess } from '@svc/contract';
import { routesOf } from '../../src/core/unknown-route';
import { expectError } from '../kit/expect';
import { bearer, useTestServer, OPERATOR_TOKEN, type TestServer } from '../harness';

// Failed attempts draw from the client IP's bucket (20 a second by default); this file fails on purpose, often.
const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');


const listKeys = (headers: Record<string, string> = {}) => t.http().get('/v1/keys').set(headers);

async function createKey(secret: string, body: object): Promise<{ id: string; secret: string }> {
  const res = await t.http().post('/v1/keys').set(bearer(secret)).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** Every keys route, with its path parameters filled in. */
const keyRoutes = routesOf(contract.keys).map((r) => ({
  method: r.method.toLowerCase() as 'get' | 'post' | 'delete',
  path: r.path.replace(/:[a-z_]+/g, 'key_unknown'),
  scope: (r.metadata as { access: Extract<RouteAccess, { auth: 'tenant' }> }).access.scope,
}));
const call = (route: (typeof keyRoutes)[number], headers: Record<string, string>) =>
  t.http()[route.method](route.path).set(headers);

describe('API keys', () => {
  it('answers 401 api_key_missing without a key, in the common error shape', async () => {
    const res = await listKeys();
    expectError(res, 401, 'api_key_missing', { type: 'authentication_error' });
    expect(res.body.error.request_id).toBe(res.headers['request-id']);
    expect(res.body.error.doc_url).toMatch(/\/docs\/errors#api_key_missing$/);
    expectError(await listKeys({ authorization: 'Bearer ' }), 401, 'api_key_missing', { type: 'authentication_error' });
  });

  it.each([
    'Bearer not-a-key',
    'Bearer sk_test_short',
    `Bearer xk_test_${'a'.repeat(40)}`,
    `Bearer sk_prod_${'a'.repeat(40)}`,
    `Bearer sk_test_${'a'.repeat(41)}`,
    `Bearer sk_test_${'a'.repeat(39)}!`,
  ])('answers 401 api_key_invalid to the malformed %s', async (authorization) => {
    expectError(await listKeys({ authorization }), 401, 'api_key_invalid', { type: 'authentication_error' });
  });

  it('answers 401 api_key_invalid to a well-formed key nobody issued', async () => {
    expectError(await listKeys(bearer(`sk_test_${'A'.repeat(40)}`)), 401, 'api_key_invalid', { type: 'authentication_error' });
  });

  it('takes keys of both environments, with any case of Bearer', async () => {
    const { keys } = await t.tenant();
    const live = await listKeys({ authorization: `bearer ${keys.live.secret}` });
    expect(live.status).toBe(200);
    expect(live.body.data.every((k: { livemode: boolean }) => k.livemode)).toBe(true);
  });

  it('refuses a key once its expiry passes, even while it is cached', async () => {
    const { keys } = await t.tenant();
    const expiresAt = Date.now() + 3600_000;
    const key = await createKey(keys.test.secret, { type: 'secret', expires_at: new Date(expiresAt).toISOString() });
    expect((await listKeys(bearer(key.secret))).status).toBe(200);
    t.ctx.clock = () => new Date(expiresAt - 1);
    try {
      expect((await listKeys(bearer(key.secret))).status).toBe(200);
      t.ctx.clock = () => new Date(expiresAt);
      expectError(await listKeys(bearer(key.secret)), 401, 'api_key_expired', { type: 'authentication_error' });
    } finally {
      t.ctx.clock = undefined;
    }
  });

  it('tells expired from revoked keys read from the database', async () => {
    const { keys } = await t.tenant();
    const expired = await createKey(keys.test.secret, { type: 'secret' });
    const revoked = await createKey(keys.test.secret, { type: 'secret' });
    await t.ctx.db.updateTable('api_keys').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', expired.id).execute();
    await t.ctx.db.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', revoked.id).execute();
    expectError(await listKeys(bearer(expired.secret)), 401, 'api_key_expired', { type: 'authentication_error' });
    expectError(await listKeys(bearer(revoked.secret)), 401, 'api_key_revoked', { type: 'authentication_error' });
  });
});

describe('credential kinds and scopes', () => {
  it('refuses publishable keys on every keys route with 403 insufficient_permissions', async () => {
    const { keys } = await t.tenant();
    for (const route of keyRoutes) {
      expectError(await call(route, {}), 401, 'api_key_missing', { type: 'authentication_error' });
      expectError(await call(route, { 'svc-publishable-key': keys.test.publishable }), 403, 'insufficient_permissions', { type: 'permission_error' });
      expectError(await call(route, bearer(keys.live.publishable)), 403, 'insufficient_permissions', { type: 'permission_error' });
    }
  });

  it('refuses a restricted key without the route scope, naming it', async () => {
    const { keys } = await t.tenant();
    const other = await createKey(keys.test.secret, { type: 'restricted', scopes: ['events:write', 'streams:read'] });
    for (const route of keyRoutes) {
      const res = await call(route, bearer(other.secret));
      expectError(res, 403, 'missing_scope', { type: 'permission_error' });
      expect(res.body.error.details).toEqual({ required_scope: route.scope });
    }
    expect(new Set(keyRoutes.map((r) => r.scope))).toEqual(new Set(['platform:read', 'platform:write']));
  });

  it('lets platform:read only read', async () => {
    const { keys } = await t.tenant();
    const reader = await createKey(keys.test.secret, { type: 'restricted', scopes: ['platform:read'] });
    expect((await listKeys(bearer(reader.secret))).status).toBe(200);
    const write = await t.http().post('/v1/keys').set(bearer(reader.secret)).send({ type: 'publishable' });
    expectError(write, 403, 'missing_scope', { type: 'permission_error' });
    expect(write.body.error.details).toEqual({ required_scope: 'platform:write' });
  });

  it.each([['platform:write'], ['platform:*']])('lets %s read and write', async (scope) => {
    const { keys } = await t.tenant();
    const key = await createKey(keys.test.secret, { type: 'restricted', scopes: [scope] });
    expect((await listKeys(bearer(key.secret))).status).toBe(200);
    await createKey(key.secret, { type: 'publishable' });
  });
});

describe('IP allowlist', () => {
  it('refuses requests from outside the allowlist', async () => {
    const { keys } = await t.tenant();
    const key = await createKey(keys.test.secret, { type: 'secret', ip_allowlist: ['10.0.0.0/8', '192.168.1.1'] });
    const res = await listKeys(bearer(key.secret));
    expectError(res, 403, 'ip_not_allowed', { type: 'permission_error' });
  });

  it.each([[['127.0.0.1']], [['::ffff:127.0.0.1']], [['127.0.0.0/8']], [['10.0.0.1', '127.0.0.1']]])(
    'accepts loopback requests with %j',
    async (ip_allowlist) => {
      const { keys } = await t.tenant();
      const key = await createKey(keys.test.secret, { type: 'secret', ip_allowlist });
      expect((await listKeys(bearer(key.secret))).status).toBe(200);
    },
  );
});

describe('operator routes', () => {
  it.each([
    ['no credential', {}],
    ['a wrong token', bearer(`${OPERATOR_TOKEN}x`)],
    ['a prefix of the token', bearer(OPERATOR_TOKEN.slice(0, -1))],
  ])('refuse %s with 401 operator_token_invalid', async (_name, headers) => {
    const res = await t.http().get('/v1/operator/tenants').set(headers);
    expectError(res, 401, 'operator_token_invalid', { type: 'authentication_error' });
  });

  it('refuse tenant keys', async () => {
    const { keys } = await t.tenant();
    expectError(await t.http().get('/v1/operator/tenants').set(bearer(keys.test.secret)), 401, 'operator_token_invalid', { type: 'authentication_error' });
    expectError(await t.http().get('/v1/operator/tenants').set(bearer(keys.live.secret)), 401, 'operator_token_invalid', { type: 'authentication_error' });
    expect((await t.http().get('/v1/operator/tenants').set(t.operator)).status).toBe(200);
  });
});

describe('tenant changes', () => {
  /** The tenant's products as this process has the key cached: a late NOTIFY may have dropped the entry, never kept it stale. */
  const cachedProducts = (secret: string) => t.ctx.credentials.get(sha256(secret))?.tenant.products.join(',') ?? 'not cached';

  it('reach a cached key at once in the process that made them', async () => {
    const { tenant, keys } = await t.tenant();
    const warm = await listKeys(bearer(keys.test.secret));
    expect(warm.headers['ratelimit-limit']).toBe('100');
    expect(cachedProducts(keys.test.secret)).toMatch(/^events,/);

    const patch = await t.http().patch(`/v1/operator/tenants/${tenant.id}`).set(t.operator).send({ products: [], rate_limits: { secret: 7 } });
    expect(patch.status).toBe(200);
    expect(patch.body.data).toMatchObject({ products: [], rate_limits: { secret: 7 } });
    expect(cachedProducts(keys.test.secret)).toBe('not cached');
    const res = await listKeys(bearer(keys.test.secret));
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-limit']).toBe('7');
    expect(['', 'not cached']).toContain(cachedProducts(keys.test.secret));
    expect((await t.http().get(`/v1/operator/tenants/${tenant.id}`).set(t.operator)).body.data.products).toEqual([]);

    const again = await t.http().patch(`/v1/operator/tenants/${tenant.id}`).set(t.operator).send({ products: ['streams', 'events'] });
    expect(again.body.data.products).toEqual(['events', 'streams']);
    expect((await listKeys(bearer(keys.test.secret))).status).toBe(200);
    expect(['events,streams', 'not cached']).toContain(cachedProducts(keys.test.secret));
  });
});
