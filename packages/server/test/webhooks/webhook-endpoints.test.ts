import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, useTestServer, type TestServer } from '../harness';
import { createEndpoint } from './webhook-helpers';
import { expectError } from '../kit/expect';

const t = useTestServer();

const URL_ = 'http://127.0.0.1:4999/hooks';


describe('POST /v1/webhook_endpoints', () => {
  it('creates an endpoint and shows its whsec_ secret once', async () => {
    const { tenant, keys } = await t.tenant();
    const created = await createEndpoint(t, keys.test.secret, {
      url: URL_,
      enabled_events: ['streams.*', 'access.entitlement.granted', 'streams.*'],
      description: 'Local receiver',
      metadata: { team: 'video' },
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^whe_/),
      object: 'webhook_endpoint',
      livemode: false,
      url: URL_,
      description: 'Local receiver',
      enabled_events: ['streams.*', 'access.entitlement.granted'],
      api_version: '2026-11-01',
      status: 'enabled',
      disabled_reason: null,
      previous_secret_expires_at: null,
      external_id: null,
      metadata: { team: 'video' },
      created_at: expect.any(String),
      updated_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_/),
    });
    const fetched = await t.http().get(`/v1/webhook_endpoints/${created.id}`).set(bearer(keys.test.secret));
    expect(fetched.status).toBe(200);
    expect(fetched.body.data.secret).toBeUndefined();
    const listed = await t.http().get('/v1/webhook_endpoints').set(bearer(keys.test.secret));
    expect(listed.body.data.map((e: { secret?: string }) => e.secret)).toEqual([undefined]);
    // Stored sealed, never in plaintext.
    const row = await t.ctx.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.tenant_id).toBe(tenant.id);
    expect(row.secret_sealed).not.toContain(created.secret.slice(6));
    expect(t.ctx.secrets.decrypt(row.secret_sealed, created.id)).toBe(created.secret);
  });

  it.each([
    [{ url: URL_, enabled_events: [] }, 'enabled_events'],
    [{ url: URL_, enabled_events: ['streams.live_stream.exploded'] }, 'enabled_events.0'],
    [{ url: URL_, enabled_events: ['nope.*'] }, 'enabled_events.0'],
    [{ url: URL_, enabled_events: ['streams.*.created'] }, 'enabled_events.0'],
    [{ url: 'ftp://127.0.0.1/x', enabled_events: ['*'] }, 'url'],
    [{ url: 'not a url', enabled_events: ['*'] }, 'url'],
    [{ url: URL_, enabled_events: ['*'], api_version: '2020-01-01' }, 'api_version'],
    [{ enabled_events: ['*'] }, 'url'],
  ])('refuses %j with 422 on %s', async (body, param) => {
    const { keys } = await t.tenant();
    const res = await t.http().post('/v1/webhook_endpoints').set(bearer(keys.test.secret)).send(body);
    expectError(res, 422, 'validation_failed');
    expect(res.body.error.details).toHaveProperty([param]);
  });

  it('takes exact types, * and wildcards', async () => {
    const { keys } = await t.tenant();
    for (const filter of ['*', 'streams.*', 'streams.live_stream.*', 'platform.webhook_endpoint.disabled', 'events.order.paid']) {
      await createEndpoint(t, keys.test.secret, { url: URL_, enabled_events: [filter] });
    }
  });

  it('keeps external_id unique per environment', async () => {
    const { keys } = await t.tenant();
    await createEndpoint(t, keys.test.secret, { url: URL_, enabled_events: ['*'], external_id: 'main' });
    const again = await t.http().post('/v1/webhook_endpoints').set(bearer(keys.test.secret)).send({ url: URL_, enabled_events: ['*'], external_id: 'main' });
    expectError(again, 409, 'external_id_taken');
    const byExternal = await t.http().get('/v1/webhook_endpoints/external/main').set(bearer(keys.test.secret));
    expect(byExternal.status).toBe(200);
    expect(byExternal.body.data.external_id).toBe('main');
  });
});

describe('GET /v1/webhook_endpoints', () => {
  it('pages newest first with cursors and filters by metadata', async () => {
    const { keys } = await t.tenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createEndpoint(t, keys.test.secret, { url: URL_, enabled_events: ['*'], metadata: { n: String(i % 2) } })).id);
    const first = await t.http().get('/v1/webhook_endpoints?limit=2').set(bearer(keys.test.secret));
    expect(first.body.data.map((e: { id: string }) => e.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.meta.pagination).toMatchObject({ limit: 2, has_more: true });
    const second = await t.http().get(`/v1/webhook_endpoints?limit=2&cursor=${first.body.meta.pagination.next_cursor}`).set(bearer(keys.test.secret));
    expect(second.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    const odd = await t.http().get('/v1/webhook_endpoints?metadata[n]=1').set(bearer(keys.test.secret));
    expect(odd.body.data.map((e: { id: string }) => e.id)).toEqual([ids[3], ids[1]]);
  });
});

describe('PATCH and DELETE /v1/webhook_endpoints/{id}', () => {
  it('updates fields, disables and re-enables', async () => {
    const { keys } = await t.tenant();
    const e = await createEndpoint(t, keys.test.secret, { url: URL_, enabled_events: ['*'], description: 'a' });
    const patch = (body: object) => t.http().patch(`/v1/webhook_endpoints/${e.id}`).set(bearer(keys.test.secret)).send(body);
    const updated = await patch({ url: 'http://127.0.0.1:5000/new', enabled_events: ['access.*'], description: null, metadata: { k: 'v' } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data).toMatchObject({ url: 'http://127.0.0.1:5000/new', enabled_events: ['access.*'], description: null, metadata: { k: 'v' } });
    expect(updated.body.data.secret).toBeUndefined();
    expect((await patch({ status: 'disabled' })).body.data).toMatchObject({ status: 'disabled', disabled_reason: 'manual' });
    expect((await patch({ status: 'enabled' })).body.data).toMatchObject({ status: 'enabled', disabled_reason: null });
    expectError(await patch({ enabled_events: ['bogus'] }), 422, 'validation_failed');
  });

  it('deletes, then answers 404', async () => {
    const { keys } = await t.tenant();
    const e = await createEndpoint(t, keys.test.secret, { url: URL_, enabled_events: ['*'] });
    const del = await t.http().delete(`/v1/webhook_endpoints/${e.id}`).set(bearer(keys.test.secret));
    expect(del.status).toBe(200);
    expect(del.body.data.id).toBe(e.id);
    expectError(await t.http().get(`/v1/webhook_endpoints/${e.id}`).set(bearer(keys.test.secret)), 404, 'resource_not_found');
    expectError(await t.http().delete(`/v1/webhook_endpoints/${e.id}`).set(bearer(keys.test.secret)), 404, 'resource_not_found');
  });
});

describe('POST /v1/webhook_endpoints/{id}/roll_secret', () => {
  it('returns a new secret and keeps the old one for the grace period', async () => {
    const { keys } = await t.tenant();
    const e = await createEndpoint(t, keys.test.secret, { url: URL_, enabled_events: ['*'] });
    const res = await t.http().post(`/v1/webhook_endpoints/${e.id}/roll_secret`).set(bearer(keys.test.secret)).send({ expires_in_seconds: 3600 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.secret).toMatch(/^whsec_/);
    expect(res.body.data.secret).not.toBe(e.secret);
    const graceEnds = Date.parse(res.body.data.previous_secret_expires_at);
    expect(Math.abs(graceEnds - (Date.now() + 3600_000))).toBeLessThan(10_000);
    const now = await t.http().post(`/v1/webhook_endpoints/${e.id}/roll_secret`).set(bearer(keys.test.secret)).send({ expires_in_seconds: 0 });
    expect(now.body.data.previous_secret_expires_at).toBeNull();
    const bad = await t.http().post(`/v1/webhook_endpoints/${e.id}/roll_secret`).set(bearer(keys.test.secret)).send({ expires_in_seconds: 604_801 });
    expectError(bad, 422, 'validation_failed');
  });

  it('defaults to a 24-hour grace period', async () => {
    const { keys } = await t.tenant();
    const e = await createEndpoint(t, keys.test.secret, { url: URL_, enabled_events: ['*'] });
    const res = await t.http().post(`/v1/webhook_endpoints/${e.id}/roll_secret`).set(bearer(keys.test.secret));
    expect(Math.abs(Date.parse(res.body.data.previous_secret_expires_at) - (Date.now() + 86_400_000))).toBeLessThan(10_000);
  });
});

describe('access', () => {
  it('takes restricted keys with platform:read for reads and platform:write for writes', async () => {
    const { keys } = await t.tenant();
    const e = await createEndpoint(t, keys.test.secret, { url: URL_, enabled_events: ['*'] });
    const rk = async (scopes: string[]) =>
      (await t.http().post('/v1/keys').set(bearer(keys.test.secret)).send({ type: 'restricted', scopes })).body.data.secret as string;
    const reader = await rk(['platform:read']);
    const writer = await rk(['platform:write']);
    const other = await rk(['streams:write']);
    expect((await t.http().get(`/v1/webhook_endpoints/${e.id}`).set(bearer(reader))).status).toBe(200);
    expect((await t.http().get(`/v1/webhook_endpoints/${e.id}/attempts`).set(bearer(reader))).status).toBe(200);
    expectError(await t.http().post('/v1/webhook_endpoints').set(bearer(reader)).send({ url: URL_, enabled_events: ['*'] }), 403, 'missing_scope');
    expectError(await t.http().post(`/v1/webhook_endpoints/${e.id}/test`).set(bearer(reader)), 403, 'missing_scope');
    expectError(await t.http().get('/v1/webhook_endpoints').set(bearer(other)), 403, 'missing_scope');
    expect((await t.http().post('/v1/webhook_endpoints').set(bearer(writer)).send({ url: URL_, enabled_events: ['*'] })).status).toBe(201);
    expectError(await t.http().get('/v1/webhook_endpoints').set({ 'svc-publishable-key': keys.test.publishable }), 403, 'insufficient_permissions');
    expectError(await t.http().get('/v1/webhook_endpoints'), 401, 'api_key_missing');
  });

  it("never shows or touches another tenant's or environment's endpoint", async () => {
    const a = await t.tenant('A');
    const b = await t.tenant('B');
    const e = await createEndpoint(t, a.keys.test.secret, { url: URL_, enabled_events: ['*'], external_id: 'x' });
    for (const key of [b.keys.test.secret, a.keys.live.secret]) {
      const auth = bearer(key);
      expect((await t.http().get('/v1/webhook_endpoints').set(auth)).body.data).toEqual([]);
      expectError(await t.http().get(`/v1/webhook_endpoints/${e.id}`).set(auth), 404, 'resource_not_found');
      expectError(await t.http().get('/v1/webhook_endpoints/external/x').set(auth), 404, 'resource_not_found');
      expectError(await t.http().patch(`/v1/webhook_endpoints/${e.id}`).set(auth).send({ description: 'x' }), 404, 'resource_not_found');
      expectError(await t.http().delete(`/v1/webhook_endpoints/${e.id}`).set(auth), 404, 'resource_not_found');
      expectError(await t.http().post(`/v1/webhook_endpoints/${e.id}/roll_secret`).set(auth), 404, 'resource_not_found');
      expectError(await t.http().post(`/v1/webhook_endpoints/${e.id}/replay`).set(auth).send({ event_ids: ['evt_x'] }), 404, 'resource_not_found');
      expectError(await t.http().post(`/v1/webhook_endpoints/${e.id}/test`).set(auth), 404, 'resource_not_found');
      expectError(await t.http().get(`/v1/webhook_endpoints/${e.id}/attempts`).set(auth), 404, 'resource_not_found');
    }
    expect((await t.http().get(`/v1/webhook_endpoints/${e.id}`).set(bearer(a.keys.test.secret))).body.data.description).toBeNull();
  });

  it('answers 404 for ids with another prefix', async () => {
    const { keys } = await t.tenant();
    expectError(await t.http().get('/v1/webhook_endpoints/key_123').set(bearer(keys.test.secret)), 404, 'resource_not_found');
  });
});
