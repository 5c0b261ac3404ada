import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../kit/expect';
import { bearer, useTestServer, type TestServer } from '../harness';

type Key = Record<string, unknown> & { id: string; secret?: string };

const t = useTestServer();

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');


const get = (key: string, path: string) => t.http().get(path).set(bearer(key));
const create = (key: string, body: object) => t.http().post('/v1/keys').set(bearer(key)).send(body);
const revoke = (key: string, id: string) => t.http().delete(`/v1/keys/${id}`).set(bearer(key));
const roll = (key: string, id: string, body?: object) => {
  const req = t.http().post(`/v1/keys/${id}/roll`).set(bearer(key));
  return body ? req.send(body) : req;
};

async function createKey(key: string, body: object): Promise<Key & { secret: string }> {
  const res = await create(key, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** The ID of the key with this secret, looked up by its hash as the server stores it. */
async function keyIdOf(secret: string): Promise<string> {
  const row = await t.ctx.db.selectFrom('api_keys').select('id').where('secret_hash', '=', sha256(secret)).executeTakeFirstOrThrow();
  return row.id;
}

const metadataOf = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));

describe('DELETE /v1/keys/{id}', () => {
  it('revokes a key at once, and answers the same key when revoked again', async () => {
    const { keys } = await t.tenant();
    const key = await createKey(keys.test.secret, { type: 'secret' });
    expect((await get(key.secret, '/v1/keys')).status).toBe(200);

    const res = await revoke(keys.test.secret, key.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: key.id, status: 'revoked' });
    expect(res.body.data).not.toHaveProperty('secret');
    expect(Date.parse(res.body.data.revoked_at)).toBeGreaterThan(Date.now() - 10_000);
    expectError(await get(key.secret, '/v1/keys'), 401, 'api_key_revoked', { type: 'authentication_error' });

    const again = await revoke(keys.test.secret, key.id);
    expect(again.status).toBe(200);
    // `last_used_at` is written off the request path, so it may land in between; the revocation itself must not change.
    const { last_used_at: _first, ...revoked } = res.body.data;
    const { last_used_at: _second, ...revokedAgain } = again.body.data;
    expect(revokedAgain).toEqual(revoked);
    expect((await get(keys.test.secret, `/v1/keys/${key.id}`)).body.data.status).toBe('revoked');
  });
});

describe('POST /v1/keys/{id}/roll', () => {
  it('replaces the key and expires the old one at once by default', async () => {
    const { keys } = await t.tenant();
    const old = await createKey(keys.test.secret, { type: 'restricted', scopes: ['platform:write'], name: 'ci', ip_allowlist: ['127.0.0.0/8'], metadata: { a: 'b' } });
    expect((await get(old.secret, '/v1/keys')).status).toBe(200);

    const res = await roll(keys.test.secret, old.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rolled = res.body.data;
    expect(rolled.id).not.toBe(old.id);
    expect(rolled.secret).toMatch(/^rk_test_[0-9A-Za-z]{40}$/);
    expect(rolled).toMatchObject({ type: 'restricted', scopes: ['platform:write'], name: 'ci', ip_allowlist: ['127.0.0.0/8'], metadata: { a: 'b' }, status: 'active', expires_at: null });
    expect((await get(rolled.secret, '/v1/keys')).status).toBe(200);
    expectError(await get(old.secret, '/v1/keys'), 401, 'api_key_expired', { type: 'authentication_error' });
    expect((await get(keys.test.secret, `/v1/keys/${old.id}`)).body.data.status).toBe('expired');
  });

  it('lets the old key work until expires_in_seconds passes', async () => {
    const { keys } = await t.tenant();
    const old = await createKey(keys.test.secret, { type: 'secret' });
    expect((await get(old.secret, '/v1/keys')).status).toBe(200);
    const res = await roll(keys.test.secret, old.id, { expires_in_seconds: 3600 });
    expect(res.status).toBe(200);
    expect((await get(old.secret, '/v1/keys')).status).toBe(200);
    const after = (await get(keys.test.secret, `/v1/keys/${old.id}`)).body.data;
    expect(after.status).toBe('active');
    expect(Math.abs(Date.parse(after.expires_at) - (Date.now() + 3600_000))).toBeLessThan(10_000);
  });

  it('never moves an expiry later', async () => {
    const { keys } = await t.tenant();
    const expiresAt = new Date(Date.now() + 3600_000).toISOString();
    const old = await createKey(keys.test.secret, { type: 'secret', expires_at: expiresAt });
    expect((await roll(keys.test.secret, old.id, { expires_in_seconds: 604_800 })).status).toBe(200);
    expect((await get(keys.test.secret, `/v1/keys/${old.id}`)).body.data.expires_at).toBe(expiresAt);
  });

  it.each([604_801, -1, 1.5])('refuses expires_in_seconds %s', async (seconds) => {
    const { keys } = await t.tenant();
    const old = await createKey(keys.test.secret, { type: 'secret' });
    const res = await roll(keys.test.secret, old.id, { expires_in_seconds: seconds });
    expectError(res, 422, 'validation_failed', { type: 'invalid_request_error' });
    expect(res.body.error.details).toHaveProperty(['expires_in_seconds']);
    expect((await get(old.secret, '/v1/keys')).status).toBe(200);
  });

  it('refuses to roll a revoked or expired key', async () => {
    const { keys } = await t.tenant();
    const revoked = await createKey(keys.test.secret, { type: 'secret' });
    await revoke(keys.test.secret, revoked.id);
    expectError(await roll(keys.test.secret, revoked.id), 409, 'key_inactive', { type: 'invalid_request_error' });
    const expired = await createKey(keys.test.secret, { type: 'secret' });
    expect((await roll(keys.test.secret, expired.id)).status).toBe(200);
    expectError(await roll(keys.test.secret, expired.id), 409, 'key_inactive', { type: 'invalid_request_error' });
  });
});

describe('a restricted caller', () => {
  it('hands out only publishable keys and restricted keys within its own scopes', async () => {
    const { keys } = await t.tenant();
    const writer = await createKey(keys.test.secret, { type: 'restricted', scopes: ['platform:write', 'events:read'] });

    const secret = await create(writer.secret, { type: 'secret' });
    expectError(secret, 403, 'missing_scope', { type: 'permission_error' });
    expect(secret.body.error.param).toBe('type');
    const wider = await create(writer.secret, { type: 'restricted', scopes: ['events:write'] });
    expectError(wider, 403, 'missing_scope', { type: 'permission_error' });
    expect(wider.body.error.param).toBe('scopes');

    expect((await createKey(writer.secret, { type: 'publishable' })).type).toBe('publishable');
    const narrower = await createKey(writer.secret, { type: 'restricted', scopes: ['platform:read', 'events:read'] });
    expect(narrower.scopes).toEqual(['platform:read', 'events:read']);
    const list = await get(keys.test.secret, '/v1/keys');
    expect(list.body.meta.pagination.total).toBe(5);
  });

  it('rolls only keys it could have created', async () => {
    const { keys } = await t.tenant();
    const writer = await createKey(keys.test.secret, { type: 'restricted', scopes: ['platform:write'] });
    const wider = await createKey(keys.test.secret, { type: 'restricted', scopes: ['events:write'] });
    for (const id of [await keyIdOf(keys.test.secret), wider.id]) {
      const res = await roll(writer.secret, id);
      expectError(res, 403, 'missing_scope', { type: 'permission_error' });
      expect(res.body).not.toHaveProperty('data');
    }
    expect((await get(keys.test.secret, '/v1/keys')).status).toBe(200);
    expect((await get(keys.test.secret, `/v1/keys/${wider.id}`)).body.data.status).toBe('active');

    const narrower = await createKey(keys.test.secret, { type: 'restricted', scopes: ['platform:read'] });
    const publishable = await createKey(keys.test.secret, { type: 'publishable' });
    for (const id of [narrower.id, publishable.id]) expect((await roll(writer.secret, id)).status).toBe(200);
  });
});

describe('revoking with a restricted key', () => {
  it('revokes only keys it could have created', async () => {
    const { keys } = await t.tenant();
    const writer = await createKey(keys.test.secret, { type: 'restricted', scopes: ['platform:write'] });
    const wider = await createKey(keys.test.secret, { type: 'restricted', scopes: ['events:write'] });
    for (const id of [await keyIdOf(keys.test.secret), wider.id]) {
      const res = await t.http().delete(`/v1/keys/${id}`).set('authorization', `Bearer ${writer.secret}`);
      expectError(res, 403, 'missing_scope', { type: 'permission_error' });
    }
    expect((await get(keys.test.secret, `/v1/keys/${wider.id}`)).body.data.status).toBe('active');
    const publishable = await createKey(keys.test.secret, { type: 'publishable' });
    const res = await t.http().delete(`/v1/keys/${publishable.id}`).set('authorization', `Bearer ${writer.secret}`);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('revoked');
  });
});

describe('last_used_at', () => {
  it('is set after the key is used', async () => {
    const { keys } = await t.tenant();
    const key = await createKey(keys.test.secret, { type: 'secret' });
    const before = Date.now();
    expect((await get(key.secret, '/v1/keys')).status).toBe(200);
    let lastUsed: string | null = null;
    for (let i = 0; i < 40 && !lastUsed; i++) {
      lastUsed = (await get(keys.test.secret, `/v1/keys/${key.id}`)).body.data.last_used_at;
      if (!lastUsed) await new Promise((r) => setTimeout(r, 50));
    }
    expect(lastUsed).not.toBeNull();
    expect(Date.parse(lastUsed!)).toBeGreaterThanOrEqual(before - 1000);
  });
});

describe('isolation', () => {
  it("hides another tenant's keys on every route", async () => {
    const a = await t.tenant('A');
    const b = await t.tenant('B');
    const key = await createKey(a.keys.test.secret, { type: 'secret', external_id: 'shared-name' });
    for (const res of [
      await get(b.keys.test.secret, `/v1/keys/${key.id}`),
      await get(b.keys.test.secret, '/v1/keys/external/shared-name'),
      await revoke(b.keys.test.secret, key.id),
      await roll(b.keys.test.secret, key.id),
    ]) {
      expectError(res, 404, 'resource_not_found', { type: 'invalid_request_error' });
    }
    const list = await get(b.keys.test.secret, '/v1/keys');
    expect(list.body.data.map((k: Key) => k.id)).not.toContain(key.id);
    expect((await get(key.secret, `/v1/keys/${key.id}`)).body.data).toMatchObject({ status: 'active', expires_at: null });
  });

  it('keeps test and live keys apart', async () => {
    const { keys } = await t.tenant();
    const testKey = await createKey(keys.test.secret, { type: 'secret', external_id: 'env' });
    const liveKey = await createKey(keys.live.secret, { type: 'secret', external_id: 'env' });
    const testList = (await get(keys.test.secret, '/v1/keys')).body.data as Key[];
    const liveList = (await get(keys.live.secret, '/v1/keys')).body.data as Key[];
    expect(testList.map((k) => k.livemode)).toEqual([false, false, false]);
    expect(liveList.map((k) => k.livemode)).toEqual([true, true, true]);
    expect(testList.map((k) => k.id)).toContain(testKey.id);
    expect(liveList.map((k) => k.id)).toContain(liveKey.id);
    expect((await get(keys.test.secret, '/v1/keys/external/env')).body.data.id).toBe(testKey.id);
    expect((await get(keys.live.secret, '/v1/keys/external/env')).body.data.id).toBe(liveKey.id);
    for (const [caller, other] of [
      [keys.test.secret, liveKey.id],
      [keys.live.secret, testKey.id],
    ] as const) {
      expectError(await get(caller, `/v1/keys/${other}`), 404, 'resource_not_found', { type: 'invalid_request_error' });
      expectError(await revoke(caller, other), 404, 'resource_not_found', { type: 'invalid_request_error' });
      expectError(await roll(caller, other), 404, 'resource_not_found', { type: 'invalid_request_error' });
    }
  });
});

describe('limits that travel with a key', () => {
  it('rolling keeps the expiry a key was made with', async () => {
    const { keys } = await t.tenant();
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const temporary = await createKey(keys.test.secret, { type: 'secret', expires_at: expiresAt });
    const rolled = await roll(keys.test.secret, temporary.id, { expires_in_seconds: 0 });
    expect(rolled.status).toBe(200);
    expect(rolled.body.data.expires_at).toBe(expiresAt);
  });

  it('a restricted key hands its allowlist and expiry to the keys it creates', async () => {
    const { keys } = await t.tenant();
    const creatorExpiry = new Date(Date.now() + 3_600_000).toISOString();
    const creator = await createKey(keys.test.secret, {
      type: 'restricted',
      scopes: ['platform:write'],
      ip_allowlist: ['127.0.0.1', '::ffff:127.0.0.1'],
      expires_at: creatorExpiry,
    });
    const child = await createKey(creator.secret, { type: 'publishable' });
    expect(child.ip_allowlist).toEqual(['127.0.0.1', '::ffff:127.0.0.1']);
    expect(child.expires_at).toBe(creatorExpiry);
    const later = await createKey(creator.secret, { type: 'publishable', expires_at: new Date(Date.now() + 86_400_000).toISOString() });
    expect(later.expires_at).toBe(creatorExpiry);
    const escaping = await create(creator.secret, { type: 'publishable', ip_allowlist: ['10.0.0.1'] });
    expect(escaping.status).toBe(403);
    expect(escaping.body.error).toMatchObject({ code: 'missing_scope', param: 'ip_allowlist' });
  });
});
