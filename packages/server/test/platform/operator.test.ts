import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, PRODUCTS } from '@svc/contract';
import { newId } from '../../src/core/ids';
import { bearer, useTestServer, type TestServer } from '../harness';

const t = useTestServer();

const TENANTS = '/v1/operator/tenants';
const create = (body: object) => t.http().post(TENANTS).set(t.operator).send(body);
const list = (query: string) => t.http().get(`${TENANTS}?${query}`).set(t.operator);
const unique = () => randomUUID().slice(0, 8);

describe('create a tenant', () => {
  it('answers 201 with the tenant, every product, default rate limits and four keys', async () => {
    const res = await create({ name: 'Acme Live' });
    expect(res.status).toBe(201);
    const { tenant, keys } = res.body.data;
    expect(tenant).toEqual({
      id: expect.stringMatching(/^ten_[0-9a-z]{26}$/),
      object: 'tenant',
      name: 'Acme Live',
      products: [...PRODUCTS],
      rate_limits: { secret: 100, publishable: 20 },
      video: { live_network: null, dedicated_environment: false },
      external_id: null,
      metadata: {},
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(PRODUCTS).toHaveLength(9);
    expect(new Date(tenant.created_at).toISOString()).toBe(tenant.created_at);
    expect(Math.abs(Date.parse(tenant.created_at) - Date.now())).toBeLessThan(60_000);
    expect(keys).toEqual({
      test: { secret: expect.stringMatching(/^sk_test_[0-9A-Za-z]{40}$/), publishable: expect.stringMatching(/^pk_test_[0-9A-Za-z]{40}$/) },
      live: { secret: expect.stringMatching(/^sk_live_[0-9A-Za-z]{40}$/), publishable: expect.stringMatching(/^pk_live_[0-9A-Za-z]{40}$/) },
    });
  });

  it('hands out keys that work, each in its own environment', async () => {
    const { body } = await create({ name: 'Working keys' });
    const { keys } = body.data;

    const test = await t.http().get('/v1/keys').set(bearer(keys.test.secret));
    expect(test.status).toBe(200);
    expect(test.body.data).toHaveLength(2);
    expect(test.body.data.map((k: { livemode: boolean }) => k.livemode)).toEqual([false, false]);
    expect(test.body.data.map((k: { type: string }) => k.type).sort()).toEqual(['publishable', 'secret']);

    const live = await t.http().get('/v1/keys').set(bearer(keys.live.secret));
    expect(live.status).toBe(200);
    expect(live.body.data).toHaveLength(2);
    expect(live.body.data.map((k: { livemode: boolean }) => k.livemode)).toEqual([true, true]);
    const liveIds = new Set(live.body.data.map((k: { id: string }) => k.id));
    for (const k of test.body.data) expect(liveIds.has(k.id)).toBe(false);
    // The full secrets are never listed.
    expect(JSON.stringify(live.body)).not.toContain(keys.live.secret);
  });

  it('keeps the products given, in the spec order and without repeats', async () => {
    const res = await create({ name: 'Streams only', products: ['streams', 'events', 'streams'] });
    expect(res.status).toBe(201);
    expect(res.body.data.tenant.products).toEqual(['events', 'streams']);
  });

  it('takes an empty product list', async () => {
    const res = await create({ name: 'Nothing yet', products: [] });
    expect(res.status).toBe(201);
    expect(res.body.data.tenant.products).toEqual([]);
  });

  it('takes partial rate limits, external_id and metadata', async () => {
    const external = `crm-${unique()}`;
    const res = await create({ name: 'Custom', rate_limits: { publishable: 50 }, external_id: external, metadata: { plan: 'pro' } });
    expect(res.status).toBe(201);
    expect(res.body.data.tenant).toMatchObject({
      rate_limits: { secret: 100, publishable: 50 },
      external_id: external,
      metadata: { plan: 'pro' },
    });
  });

  it('refuses unknown products, out-of-range limits and a missing name with 422', async () => {
    const bad = await create({ name: 'Bad', products: ['events', 'teleportation'], rate_limits: { publishable: 100_001 } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('validation_failed');
    expect(Object.keys(bad.body.error.details).sort()).toEqual(['products.1', 'rate_limits.publishable']);

    const missing = await create({});
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.error.details)).toEqual(['name']);
  });

  it('refuses a duplicate external_id with 409 external_id_taken', async () => {
    const external = `dup-${unique()}`;
    expect((await create({ name: 'First', external_id: external })).status).toBe(201);
    const res = await create({ name: 'Second', external_id: external });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'external_id_taken', param: 'external_id' });
    const found = await list(`external_id=${external}`);
    expect(found.body.data.map((x: { name: string }) => x.name)).toEqual(['First']);
  });

  it('needs the operator token', async () => {
    const none = await t.http().post(TENANTS).send({ name: 'x' });
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('operator_token_invalid');
    const { keys } = await t.tenant();
    const tenantKey = await t.http().get(TENANTS).set(bearer(keys.test.secret));
    expect(tenantKey.status).toBe(401);
    expect(tenantKey.body.error.code).toBe('operator_token_invalid');
  });
});

describe('retrieve and update a tenant', () => {
  it('retrieves a tenant by id', async () => {
    const { tenant } = (await create({ name: 'Retrievable', metadata: { a: '1' } })).body.data;
    const res = await t.http().get(`${TENANTS}/${tenant.id}`).set(t.operator);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(tenant);
  });

  it('answers 404 for an unknown tenant on GET and PATCH', async () => {
    const id = newId('tenant');
    const get = await t.http().get(`${TENANTS}/${id}`).set(t.operator);
    expect(get.status).toBe(404);
    expect(get.body.error.code).toBe('resource_not_found');
    const patch = await t.http().patch(`${TENANTS}/${id}`).set(t.operator).send({ name: 'x' });
    expect(patch.status).toBe(404);
    expect(patch.body.error.code).toBe('resource_not_found');
  });

  it('updates name, products, rate limits and metadata, leaving the rest alone', async () => {
    const external = `upd-${unique()}`;
    const { tenant } = (await create({ name: 'Before', external_id: external, metadata: { a: '1' } })).body.data;
    const res = await t
      .http()
      .patch(`${TENANTS}/${tenant.id}`)
      .set(t.operator)
      .send({ name: 'After', products: ['insights', 'commerce'], rate_limits: { secret: 7 }, metadata: { b: '2' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: tenant.id,
      name: 'After',
      products: ['commerce', 'insights'],
      rate_limits: { secret: 7, publishable: 20 },
      external_id: external,
      metadata: { b: '2' },
      created_at: tenant.created_at,
    });
    expect(Date.parse(res.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(tenant.updated_at));

    const again = await t.http().get(`${TENANTS}/${tenant.id}`).set(t.operator);
    expect(again.body.data).toEqual(res.body.data);
  });

  it('leaves everything as it was on an empty PATCH', async () => {
    const { tenant } = (await create({ name: 'Unchanged', metadata: { a: '1' } })).body.data;
    const res = await t.http().patch(`${TENANTS}/${tenant.id}`).set(t.operator).send({});
    expect(res.status).toBe(200);
    expect({ ...res.body.data, updated_at: undefined }).toEqual({ ...tenant, updated_at: undefined });
  });

  it('clears external_id with null, freeing it for another tenant', async () => {
    const external = `clear-${unique()}`;
    const { tenant } = (await create({ name: 'Holder', external_id: external })).body.data;
    const res = await t.http().patch(`${TENANTS}/${tenant.id}`).set(t.operator).send({ external_id: null });
    expect(res.status).toBe(200);
    expect(res.body.data.external_id).toBeNull();
    expect((await t.http().get(`${TENANTS}/external/${external}`).set(t.operator)).status).toBe(404);
    expect((await create({ name: 'New holder', external_id: external })).status).toBe(201);
  });

  it('refuses to PATCH an external_id another tenant holds with 409 external_id_taken', async () => {
    const external = `held-${unique()}`;
    await create({ name: 'Holder', external_id: external });
    const { tenant } = (await create({ name: 'Wants it' })).body.data;
    const res = await t.http().patch(`${TENANTS}/${tenant.id}`).set(t.operator).send({ external_id: external });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('external_id_taken');
    expect((await t.http().get(`${TENANTS}/${tenant.id}`).set(t.operator)).body.data.external_id).toBeNull();
  });

  it('refuses invalid PATCH fields with 422', async () => {
    const { tenant } = (await create({ name: 'Strict' })).body.data;
    const res = await t.http().patch(`${TENANTS}/${tenant.id}`).set(t.operator).send({ name: '', external_id: '' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.details).sort()).toEqual(['external_id', 'name']);
  });
});
