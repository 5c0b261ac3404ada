import { describe, expect, it } from 'vitest';
import { expectError } from '../kit/expect';
import { useTestServer } from '../harness';
import { keyCalls } from './key-calls';

/* Keys over their life: revoking, rolling, last use, and the limits a key travels with. */

const t = useTestServer();
const { get, create, revoke, roll, createKey } = keyCalls(t);

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
