import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearer, useTestServer, type TestServer } from '../harness';
import { browser, createStream, createTokenKey, expectStatus, grant, signToken, tenant } from '../access/access-fixtures';

const t: TestServer = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

const postKey = (secret: string, idempotencyKey: string, body: object) =>
  t.http().post('/v1/keys').set(bearer(secret)).set('Idempotency-Key', idempotencyKey).send(body);

async function restrictedKey(secret: string, scopes: string[]): Promise<string> {
  return expectStatus(await postKey(secret, randomUUID(), { type: 'restricted', scopes }), 201).data.secret;
}

describe('Idempotency keys are kept per caller', () => {
  it('does not hand a restricted key the secret key a secret key created under the same Idempotency-Key', async () => {
    const { keys } = await tenant(t);
    const sk = keys.test.secret;
    const rk = await restrictedKey(sk, ['platform:write']);
    const shared = randomUUID();
    const body = { type: 'secret', name: 'Deploy' };
    const first = expectStatus(await postKey(sk, shared, body), 201).data;
    expect(first.secret).toMatch(/^sk_test_/);

    const replay = await postKey(rk, shared, body);
    expect(replay.headers['idempotent-replayed']).toBeUndefined();
    expect(JSON.stringify(replay.body)).not.toContain(first.secret);
    // A restricted key may not create a secret key: it gets its own answer, not the stored one.
    expect(replay.status).toBe(403);

    // The secret key's own retry still replays its answer.
    const own = await postKey(sk, shared, body);
    expect(own.headers['idempotent-replayed']).toBe('true');
    expect(own.body.data.secret).toBe(first.secret);
  });

  it('keeps two restricted keys of one tenant apart', async () => {
    const { keys } = await tenant(t);
    const [a, b] = [await restrictedKey(keys.test.secret, ['platform:write']), await restrictedKey(keys.test.secret, ['platform:write'])];
    const shared = randomUUID();
    const first = expectStatus(await postKey(a, shared, { type: 'publishable', name: 'A' }), 201).data;
    const second = await postKey(b, shared, { type: 'publishable', name: 'A' });
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.data.id).not.toBe(first.id);
    expect(second.body.data.secret).not.toBe(first.secret);
  });

  it('keeps two customers of one publishable key apart', async () => {
    const created = await tenant(t);
    const sk = created.keys.test.secret;
    const stream = await createStream(t, sk);
    const tokenKey = await createTokenKey(t, sk);
    for (const customer of ['viewer-a', 'viewer-b']) await grant(t, sk, { customer, resource: { type: 'ls', id: stream.id } });
    const shared = randomUUID();
    const openAs = async (sub: string) =>
      browser(t, created.keys.test.publishable, await signToken(t, tokenKey, { sub }))
        .post('/v1/access/sessions', { resource: stream.id, device_id: 'tv' })
        .set('Idempotency-Key', shared);
    const a = expectStatus(await openAs('viewer-a'), 201).data;
    const b = await openAs('viewer-b');
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body.data.id).not.toBe(a.id);
    expect(b.body.data.customer).toBe('viewer-b');
    const again = await openAs('viewer-a');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.id).toBe(a.id);
  });
});
