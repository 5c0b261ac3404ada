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
