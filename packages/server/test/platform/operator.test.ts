import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, PRODUCTS } from '@svc/contract';
import { newId } from '../../src/core/ids';
import { bearer, createTestServer, type TestServer } from '../harness';

let t: TestServer;
beforeAll(async () => {
  t = await createTestServer();
});
afterAll(() => t.close());

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
      code: expect.stringMatching(/^acme-live(-[a-z0-9]{5})?$/),
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

describe('retrieve by external_id', () => {
  it('finds the tenant holding the external_id', async () => {
    const external = `ext-${unique()}`;
    const { tenant } = (await create({ name: 'By external', external_id: external })).body.data;
    const res = await t.http().get(`${TENANTS}/external/${external}`).set(t.operator);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(tenant);
  });

  it('answers 404 resource_not_found for an unknown external_id', async () => {
    const res = await t.http().get(`${TENANTS}/external/nobody-${unique()}`).set(t.operator);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('resource_not_found');
  });

  it('handles an external_id with URL-encoded characters', async () => {
    const external = `a b/c-${unique()}`;
    const { tenant } = (await create({ name: 'Encoded', external_id: external })).body.data;
    const res = await t.http().get(`${TENANTS}/external/${encodeURIComponent(external)}`).set(t.operator);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(tenant.id);
  });
});

describe('list tenants', () => {
  type Page = { data: Array<{ id: string; name: string }>; meta: { pagination: { limit: number; has_more: boolean; next_cursor: string | null; prev_cursor: string | null } } };
  let batch: string;
  /** Five tenants, oldest first, tagged so the list can be narrowed to them. */
  let ids: string[];
  let newestFirst: string[];

  beforeAll(async () => {
    batch = unique();
    ids = [];
    for (let i = 0; i < 5; i++) {
      const res = await create({ name: `Page ${i}`, metadata: { batch, index: String(i), parity: i % 2 ? 'odd' : 'even' } });
      ids.push(res.body.data.tenant.id);
    }
    newestFirst = [...ids].reverse();
  });

  const page = async (query: string): Promise<Page> => {
    const res = await list(`metadata[batch]=${batch}&${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Page;
  };

  it('lists newest first with the default limit and no cursors when everything fits', async () => {
    const res = await page('');
    expect(res.data.map((x) => x.id)).toEqual(newestFirst);
    expect(res.meta.pagination).toEqual({ limit: LIMITS.pagination.defaultLimit, has_more: false, next_cursor: null, prev_cursor: null });
  });

  it('lists every tenant without filters too', async () => {
    const res = await list('limit=100');
    expect(res.status).toBe(200);
    const all = res.body.data.map((x: { id: string }) => x.id) as string[];
    expect(all.filter((id) => ids.includes(id))).toEqual(newestFirst);
    expect([...all].sort().reverse()).toEqual(all);
  });

  it('walks forward with next_cursor, returning each tenant exactly once, then back with prev_cursor', async () => {
    const pages: Page[] = [];
    let res = await page('limit=2');
    pages.push(res);
    while (res.meta.pagination.has_more) {
      expect(res.meta.pagination.next_cursor).not.toBeNull();
      res = await page(`limit=2&cursor=${res.meta.pagination.next_cursor}`);
      pages.push(res);
      expect(pages.length).toBeLessThanOrEqual(3);
    }
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((p) => p.data.map((x) => x.id))).toEqual(newestFirst);
    expect(pages[0]!.meta.pagination.prev_cursor).toBeNull();
    expect(pages[2]!.meta.pagination.next_cursor).toBeNull();
    expect(pages.map((p) => p.meta.pagination.limit)).toEqual([2, 2, 2]);

    // And back from the last page.
    const back: Page[] = [pages[2]!];
    let cursor = pages[2]!.meta.pagination.prev_cursor;
    while (cursor) {
      const p = await page(`limit=2&cursor=${cursor}`);
      back.push(p);
      cursor = p.meta.pagination.prev_cursor;
      expect(back.length).toBeLessThanOrEqual(3);
    }
    expect(back.map((p) => p.data.map((x) => x.id))).toEqual([...pages].reverse().map((p) => p.data.map((x) => x.id)));
    // Walking back, `has_more` tells whether newer tenants remain.
    expect(back.map((p) => p.meta.pagination.has_more)).toEqual([false, true, false]);
    expect(back[1]!.meta.pagination.next_cursor).not.toBeNull();
  });

  it('starts after a tenant id with starting_after', async () => {
    const res = await page(`limit=2&starting_after=${newestFirst[1]}`);
    expect(res.data.map((x) => x.id)).toEqual(newestFirst.slice(2, 4));
    expect(res.meta.pagination.has_more).toBe(true);
    expect(res.meta.pagination.prev_cursor).not.toBeNull();
    const last = await page(`limit=2&starting_after=${newestFirst[3]}`);
    expect(last.data.map((x) => x.id)).toEqual([newestFirst[4]]);
    expect(last.meta.pagination.has_more).toBe(false);
  });

  it('ends before a tenant id with ending_before', async () => {
    const res = await page(`limit=2&ending_before=${newestFirst[4]}`);
    expect(res.data.map((x) => x.id)).toEqual(newestFirst.slice(2, 4));
    expect(res.meta.pagination.has_more).toBe(true);
    const first = await page(`limit=2&ending_before=${newestFirst[2]}`);
    expect(first.data.map((x) => x.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.meta.pagination.has_more).toBe(false);
    expect(first.meta.pagination.prev_cursor).toBeNull();
  });

  it('refuses a cursor together with starting_after with 400', async () => {
    const first = await page('limit=2');
    const res = await list(`limit=2&cursor=${first.meta.pagination.next_cursor}&starting_after=${ids[0]}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request', param: 'cursor' });
    const both = await list(`starting_after=${ids[0]}&ending_before=${ids[1]}`);
    expect(both.status).toBe(400);
  });

  it('refuses a cursor it did not issue with 400 invalid_cursor', async () => {
    for (const cursor of ['garbage', Buffer.from('["x","ten_1"]').toString('base64url'), Buffer.from('{}').toString('base64url')]) {
      const res = await list(`cursor=${cursor}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
    }
  });

  it('refuses a limit outside 1 to 100 with 422', async () => {
    for (const limit of ['101', '0', 'many']) {
      const res = await list(`limit=${limit}`);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      expect(Object.keys(res.body.error.details)).toEqual(['limit']);
    }
    expect((await list('limit=100')).status).toBe(200);
  });

  it('filters by metadata, every pair having to match', async () => {
    const odd = await page('metadata[parity]=odd');
    expect(odd.data.map((x) => x.id)).toEqual([ids[3], ids[1]]);
    const one = await page('metadata[parity]=odd&metadata[index]=3');
    expect(one.data.map((x) => x.id)).toEqual([ids[3]]);
    const none = await page('metadata[parity]=odd&metadata[index]=2');
    expect(none.data).toEqual([]);
    expect(none.meta.pagination).toMatchObject({ has_more: false, next_cursor: null, prev_cursor: null });
  });

  it('paginates a filtered list', async () => {
    const first = await page('metadata[parity]=even&limit=2');
    expect(first.data.map((x) => x.id)).toEqual([ids[4], ids[2]]);
    expect(first.meta.pagination.has_more).toBe(true);
    const second = await page(`metadata[parity]=even&limit=2&cursor=${first.meta.pagination.next_cursor}`);
    expect(second.data.map((x) => x.id)).toEqual([ids[0]]);
    expect(second.meta.pagination.has_more).toBe(false);
  });

  it('filters by external_id', async () => {
    const external = `filter-${unique()}`;
    const { tenant } = (await create({ name: 'Filtered', external_id: external })).body.data;
    const res = await list(`external_id=${external}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((x: { id: string }) => x.id)).toEqual([tenant.id]);
    const none = await list(`external_id=none-${unique()}`);
    expect(none.body.data).toEqual([]);
  });
});
