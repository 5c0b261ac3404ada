import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer } from '../harness';
import { useIdempotencyServer } from './idempotency-fixtures';

const { t, newKey, storedAs, keyCount, tenantCount, createKey } = useIdempotencyServer();

describe('replay', () => {
  it('keeps stored answers encrypted, so a secret shown once is not at rest in plain text', async () => {
    const { keys } = await t.tenant();
    const key = newKey();
    const first = await createKey(keys.test.secret, key, { type: 'secret' });
    const secret: string = first.body.data.secret;
    const rows = await t.ctx.db.selectFrom('idempotency_keys').selectAll().where('key', 'like', storedAs(key)).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0])).not.toContain(secret);
    expect(JSON.stringify(rows[0])).not.toContain(secret.slice(8, 20));
    const replay = await createKey(keys.test.secret, key, { type: 'secret' });
    expect(replay.body.data.secret).toBe(secret);
  });

  it('answers a repeat with the stored status and body, marked Idempotent-Replayed, and creates once', async () => {
    const { tenant, keys } = await t.tenant();
    const key = newKey();
    const body = { type: 'publishable', name: 'Web', metadata: { team: 'web' } };

    const first = await createKey(keys.test.secret, key, body);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const second = await createKey(keys.test.secret, key, body);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(second.headers['request-id']).not.toBe(first.headers['request-id']);

    expect(await keyCount(tenant.id)).toBe(3);
  });

  it('replays for the operator too, creating one tenant', async () => {
    const key = newKey();
    const name = `Idem ${key}`;
    const first = await t.http().post('/v1/operator/tenants').set(t.operator).set('Idempotency-Key', key).send({ name });
    const second = await t.http().post('/v1/operator/tenants').set(t.operator).set('Idempotency-Key', key).send({ name });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body.data.tenant.id).toBe(first.body.data.tenant.id);
    expect(await tenantCount(name)).toBe(1);
  });

  it('creates again without a key', async () => {
    const { tenant, keys } = await t.tenant();
    const body = { type: 'publishable' };
    const first = await createKey(keys.test.secret, undefined, body);
    const second = await createKey(keys.test.secret, undefined, body);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(await keyCount(tenant.id)).toBe(4);
  });

  it('counts a body with the same content in another key order as the same body', async () => {
    const { tenant, keys } = await t.tenant();
    const key = newKey();
    const first = await createKey(keys.test.secret, key, { type: 'publishable', name: 'A', metadata: { a: '1', b: '2' } });
    const second = await createKey(keys.test.secret, key, { metadata: { b: '2', a: '1' }, name: 'A', type: 'publishable' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(await keyCount(tenant.id)).toBe(3);
  });

  it('stores and replays error answers other than 422 and 5xx', async () => {
    const { tenant, keys } = await t.tenant();
    await createKey(keys.test.secret, undefined, { type: 'publishable', external_id: 'taken' });
    const key = newKey();
    const body = { type: 'publishable', external_id: 'taken' };
    const first = await createKey(keys.test.secret, key, body);
    expect(first.status).toBe(409);
    expect(first.body.error.code).toBe('external_id_taken');
    const second = await createKey(keys.test.secret, key, body);
    expect(second.status).toBe(409);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await keyCount(tenant.id)).toBe(3);
  });
});

describe('conflicts', () => {
  it('answers the same key with a different body with 409 idempotency_key_reused', async () => {
    const { tenant, keys } = await t.tenant();
    const key = newKey();
    expect((await createKey(keys.test.secret, key, { type: 'publishable', name: 'One' })).status).toBe(201);
    const res = await createKey(keys.test.secret, key, { type: 'publishable', name: 'Two' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_reused' });
    expect(res.body.error.request_id).toBe(res.headers['request-id']);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await keyCount(tenant.id)).toBe(3);
  });

  it('answers the same key on another path or method with 409 idempotency_key_reused', async () => {
    const { keys } = await t.tenant();
    const key = newKey();
    const created = await createKey(keys.test.secret, key, { type: 'publishable' });
    expect(created.status).toBe(201);
    const res = await t.http().delete(`/v1/keys/${created.body.data.id}`).set(bearer(keys.test.secret)).set('Idempotency-Key', key);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('idempotency_key_reused');
    const still = await t.http().get(`/v1/keys/${created.body.data.id}`).set(bearer(keys.test.secret));
    expect(still.body.data.status).toBe('active');
  });

  it('lets exactly one of several concurrent requests with one key run', async () => {
    const { tenant, keys } = await t.tenant();
    const key = newKey();
    const body = { type: 'publishable', name: 'Concurrent' };
    const responses = await Promise.all(Array.from({ length: 6 }, () => createKey(keys.test.secret, key, body)));

    const original = responses.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
    expect(original).toHaveLength(1);
    for (const r of responses) {
      if (r === original[0]) continue;
      if (r.status === 201) {
        expect(r.headers['idempotent-replayed']).toBe('true');
        expect(r.body).toEqual(original[0]!.body);
      } else {
        expect(r.status).toBe(409);
        expect(r.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_in_use' });
      }
    }
    expect(await keyCount(tenant.id)).toBe(3);
  });

  it('answers 409 idempotency_key_in_use while the first request still runs', async () => {
    const { tenant, keys } = await t.tenant();
    const key = newKey();
    const body = { type: 'publishable' };
    // The state a running first request leaves: its row claimed, no answer stored yet.
    const first = await createKey(keys.test.secret, key, body);
    await t.ctx.db
      .updateTable('idempotency_keys')
      .set({ response_status: null, response_body: null, locked_until: sql<Date>`now() + interval '5 minutes'` })
      .where('tenant_id', '=', tenant.id)
      .where('key', 'like', storedAs(key))
      .execute();
    const res = await createKey(keys.test.secret, key, body);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_in_use' });
    expect(first.status).toBe(201);
  });

  it('lets a retry take over a key whose first request died without answering', async () => {
    const { tenant, keys } = await t.tenant();
    const key = newKey();
    const body = { type: 'publishable' };
    await createKey(keys.test.secret, key, body);
    await t.ctx.db
      .updateTable('idempotency_keys')
      .set({ response_status: null, response_body: null, locked_until: sql<Date>`now() - interval '1 second'` })
      .where('tenant_id', '=', tenant.id)
      .where('key', 'like', storedAs(key))
      .execute();
    const res = await createKey(keys.test.secret, key, body);
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });
});
