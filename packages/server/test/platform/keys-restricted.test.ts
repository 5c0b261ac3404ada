import { describe, expect, it } from 'vitest';
import { expectError } from '../kit/expect';
import { useTestServer } from '../harness';
import { keyCalls, type Key } from './key-calls';

/* Keys handed out and ended by restricted callers, and keys kept apart per tenant and environment. */

const t = useTestServer();
const { get, create, revoke, roll, createKey, keyIdOf } = keyCalls(t);

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
