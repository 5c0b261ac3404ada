import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../kit/expect';
import { bearer, useTestServer, type TestServer } from '../harness';
import { keyCalls, sha256, type Key } from './key-calls';

const t = useTestServer();
const { get, create, revoke, roll, createKey, keyIdOf } = keyCalls(t);

const metadataOf = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));

describe('POST /v1/keys', () => {
  it.each([
    ['secret', 'sk_test_', {}],
    ['restricted', 'rk_test_', { scopes: ['platform:read'] }],
    ['publishable', 'pk_test_', {}],
  ])('creates a %s key and returns its full secret once', async (type, prefix, extra) => {
    const { keys } = await t.tenant();
    const res = await create(keys.test.secret, { type, name: 'CI', ...extra });
    expect(res.status).toBe(201);
    const key = res.body.data;
    expect(key.secret).toMatch(new RegExp(`^${prefix}[0-9A-Za-z]{40}$`));
    expect(key).toMatchObject({ object: 'api_key', type, livemode: false, name: 'CI', status: 'active', metadata: {} });
    expect(key.id).toMatch(/^key_/);
    expect(key.redacted).toBe(`${key.secret.slice(0, prefix.length + 8)}…`);
    expect(key.created_by).toBe(await keyIdOf(keys.test.secret));
    expect(key.scopes).toEqual(type === 'restricted' ? ['platform:read'] : null);
    expect(key.last_used_at).toBeNull();

    const again = await get(keys.test.secret, `/v1/keys/${key.id}`);
    expect(again.status).toBe(200);
    expect(again.body.data).not.toHaveProperty('secret');
    const { secret: _secret, ...withoutSecret } = key;
    expect(again.body.data).toEqual(withoutSecret);
    const list = await get(keys.test.secret, '/v1/keys');
    expect(list.body.data).toHaveLength(3);
    for (const listed of list.body.data) expect(listed).not.toHaveProperty('secret');
  });

  it('creates keys in the environment of the calling key', async () => {
    const { keys } = await t.tenant();
    const key = await createKey(keys.live.secret, { type: 'secret' });
    expect(key.livemode).toBe(true);
    expect(key.secret).toMatch(/^sk_live_[0-9A-Za-z]{40}$/);
    expect((await get(key.secret, '/v1/keys')).status).toBe(200);
  });

  it('stores only the hash and the redacted prefix of the secret', async () => {
    const { keys } = await t.tenant();
    const key = await createKey(keys.test.secret, { type: 'secret', name: 'stored' });
    const row = await t.ctx.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(sha256(key.secret));
    expect(row.redacted).toBe(key.redacted);
    const randomPart = key.secret.slice('sk_test_'.length);
    for (const value of Object.values(row)) {
      expect(JSON.stringify(value ?? null)).not.toContain(randomPart);
    }
  });

  it('requires scopes on restricted keys and refuses them on the others', async () => {
    const { keys } = await t.tenant();
    const missing = await create(keys.test.secret, { type: 'restricted' });
    expectError(missing, 422, 'validation_failed', { type: 'invalid_request_error' });
    expect(missing.body.error.details.scopes).toHaveLength(1);
    for (const type of ['secret', 'publishable']) {
      const res = await create(keys.test.secret, { type, scopes: ['platform:read'] });
      expectError(res, 422, 'validation_failed', { type: 'invalid_request_error' });
      expect(res.body.error.param).toBe('scopes');
      expect(res.body.error.details).toHaveProperty('scopes');
    }
    const unknownScope = await create(keys.test.secret, { type: 'restricted', scopes: ['platform:admin'] });
    expectError(unknownScope, 422, 'validation_failed', { type: 'invalid_request_error' });
  });

  it('refuses an expiry in the past and a malformed IP allowlist', async () => {
    const { keys } = await t.tenant();
    const past = await create(keys.test.secret, { type: 'secret', expires_at: new Date(Date.now() - 1000).toISOString() });
    expectError(past, 422, 'validation_failed', { type: 'invalid_request_error' });
    expect(past.body.error.details).toHaveProperty('expires_at');
    const badIp = await create(keys.test.secret, { type: 'secret', ip_allowlist: ['not-an-ip'] });
    expectError(badIp, 422, 'validation_failed', { type: 'invalid_request_error' });
    expect(Object.keys(badIp.body.error.details)[0]).toMatch(/^ip_allowlist/);
  });

  it('refuses a second key with the same external_id in the same environment only', async () => {
    const { keys } = await t.tenant();
    await createKey(keys.test.secret, { type: 'secret', external_id: 'ci-key' });
    const dup = await create(keys.test.secret, { type: 'publishable', external_id: 'ci-key' });
    expectError(dup, 409, 'external_id_taken', { type: 'invalid_request_error' });
    expect(dup.body.error.param).toBe('external_id');
    await createKey(keys.live.secret, { type: 'secret', external_id: 'ci-key' });
  });

  it('enforces the metadata limits per key', async () => {
    const { keys } = await t.tenant();
    const tooMany = await create(keys.test.secret, { type: 'secret', metadata: metadataOf(51) });
    expectError(tooMany, 422, 'validation_failed', { type: 'invalid_request_error' });
    expect(tooMany.body.error.details).toHaveProperty(['metadata']);
    const longKey = 'k'.repeat(41);
    const keyTooLong = await create(keys.test.secret, { type: 'secret', metadata: { [longKey]: 'v' } });
    expectError(keyTooLong, 422, 'validation_failed', { type: 'invalid_request_error' });
    expect(keyTooLong.body.error.details).toHaveProperty([`metadata.${longKey}`]);
    const valueTooLong = await create(keys.test.secret, { type: 'secret', metadata: { colour: 'x'.repeat(501) } });
    expectError(valueTooLong, 422, 'validation_failed', { type: 'invalid_request_error' });
    expect(valueTooLong.body.error.details).toHaveProperty(['metadata.colour']);

    const atLimits = { ...metadataOf(49), ['k'.repeat(40)]: 'x'.repeat(500) };
    const key = await createKey(keys.test.secret, { type: 'secret', metadata: atLimits });
    expect(key.metadata).toEqual(atLimits);
  });
});

describe('GET /v1/keys', () => {
  it('pages by number, newest first', async () => {
    const { keys } = await t.tenant();
    for (let i = 0; i < 3; i++) await createKey(keys.test.secret, { type: 'publishable', name: `p${i}` });
    const all = await get(keys.test.secret, '/v1/keys');
    expect(all.body.meta.pagination).toEqual({ current_page: 1, total_pages: 1, per_page: 20, total: 5 });
    const ids: string[] = all.body.data.map((k: Key) => k.id);
    expect(ids).toEqual([...ids].sort().reverse());
    expect(all.body.data[0].name).toBe('p2');

    const pages = await Promise.all([1, 2, 3, 4].map((page) => get(keys.test.secret, `/v1/keys?page=${page}&per_page=2`)));
    expect(pages.map((p) => p.body.meta.pagination)).toEqual(
      [1, 2, 3, 4].map((current_page) => ({ current_page, total_pages: 3, per_page: 2, total: 5 })),
    );
    expect(pages.flatMap((p) => p.body.data.map((k: Key) => k.id))).toEqual(ids);
    expect(pages[3]!.body.data).toEqual([]);
  });

  it.each(['per_page=101', 'per_page=0', 'page=0', 'page=abc'])('refuses %s', async (query) => {
    const { keys } = await t.tenant();
    expectError(await get(keys.test.secret, `/v1/keys?${query}`), 422, 'validation_failed', { type: 'invalid_request_error' });
  });
});

describe('GET /v1/keys/{id} and /v1/keys/external/{external_id}', () => {
  it('retrieves a key by id and by external_id', async () => {
    const { keys } = await t.tenant();
    const key = await createKey(keys.test.secret, { type: 'secret', external_id: 'deploy-bot', metadata: { team: 'ops' } });
    const byExternal = await get(keys.test.secret, '/v1/keys/external/deploy-bot');
    expect(byExternal.status).toBe(200);
    expect(byExternal.body.data).toMatchObject({ id: key.id, external_id: 'deploy-bot', metadata: { team: 'ops' } });
    expect(byExternal.body.data).not.toHaveProperty('secret');
    expectError(await get(keys.test.secret, '/v1/keys/external/nobody'), 404, 'resource_not_found', { type: 'invalid_request_error' });
  });

  it.each(['ls_123', 'key_01jzzzzzzzzzzzzzzzzzzzzzzz', 'nonsense'])('answers 404 for %s', async (id) => {
    const { keys } = await t.tenant();
    const res = await get(keys.test.secret, `/v1/keys/${id}`);
    expectError(res, 404, 'resource_not_found', { type: 'invalid_request_error' });
    expectError(await revoke(keys.test.secret, id), 404, 'resource_not_found', { type: 'invalid_request_error' });
    expectError(await roll(keys.test.secret, id), 404, 'resource_not_found', { type: 'invalid_request_error' });
  });
});

describe('expand', () => {
  /** root (the tenant's secret key) created `parent`, which created `child`. */
  async function chain() {
    const { keys } = await t.tenant();
    const parent = await createKey(keys.test.secret, { type: 'secret', name: 'parent' });
    const child = await createKey(parent.secret, { type: 'publishable', name: 'child', external_id: 'child' });
    return { root: keys.test.secret, rootId: await keyIdOf(keys.test.secret), parent, child };
  }

  it.each([
    'expand[]=created_by',
    'expand[0]=created_by',
    'expand=created_by',
    'expand=created_by&expand=created_by',
  ])('inlines the creator with %s', async (query) => {
    const { root, rootId, parent, child } = await chain();
    const res = await get(root, `/v1/keys/${child.id}?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.created_by).toMatchObject({ id: parent.id, object: 'api_key', name: 'parent', created_by: rootId });
    expect(res.body.data.created_by).not.toHaveProperty('secret');
  });

  it('inlines two levels, on lists and external_id reads too', async () => {
    const { root, rootId, parent, child } = await chain();
    const res = await get(root, `/v1/keys/external/child?expand[]=created_by.created_by`);
    expect(res.status).toBe(200);
    expect(res.body.data.created_by.id).toBe(parent.id);
    expect(res.body.data.created_by.created_by).toMatchObject({ id: rootId, object: 'api_key', created_by: null });

    const list = await get(root, '/v1/keys?expand[]=created_by');
    const listed = list.body.data.find((k: Key) => k.id === child.id);
    expect(listed.created_by).toMatchObject({ id: parent.id, created_by: rootId });
    expect(list.body.data.find((k: Key) => k.id === rootId).created_by).toBeNull();
  });

  it.each(['owner', 'created_by.owner', 'created_by.created_by.created_by'])('refuses the path %s', async (path) => {
    const { root, child } = await chain();
    const res = await get(root, `/v1/keys/${child.id}?expand[]=${path}`);
    expectError(res, 400, 'invalid_expand_path', { type: 'invalid_request_error' });
    expect(res.body.error.param).toBe(path);
    expectError(await get(root, `/v1/keys?expand[]=${path}`), 400, 'invalid_expand_path', { type: 'invalid_request_error' });
  });
});
