import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeOldEvents } from '../../src/modules/webhooks/event-log/event-log.repository';
import { bearer, useTestServer, type TestServer } from '../harness';
import { emit } from '../webhooks/webhook-helpers';
import { insertEndpointRow } from './event-fixtures';

const t = useTestServer();

const ids = (res: Response) => res.body.data.map((e: { id: string }) => e.id);
const list = (key: string, query = '') => t.http().get(`/v1/events${query}`).set(bearer(key));

async function tenantWithEvents() {
  const { tenant, keys } = await t.tenant();
  const scope = { tenantId: tenant.id, livemode: false };
  const [created] = await emit(t, scope, 'streams.live_stream.created');
  const [active] = await emit(t, scope, 'streams.live_stream.active');
  const [ready] = await emit(t, scope, 'streams.asset.ready');
  const [granted] = await emit(t, scope, 'access.entitlement.granted');
  return { tenant, keys, key: keys.test.secret, scope, e: { created: created!, active: active!, ready: ready!, granted: granted! } };
}

describe('GET /v1/events', () => {
  it('lists the environment\'s events newest first, as delivered', async () => {
    const { key, e } = await tenantWithEvents();
    const res = await list(key);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([e.granted.id, e.ready.id, e.active.id, e.created.id]);
    expect(res.body.data[0]).toEqual(e.granted);
    expect(res.body.meta.pagination).toEqual({ limit: 20, has_more: false, next_cursor: null, prev_cursor: null });
  });

  it.each([
    ['streams.live_stream.active', ['active']],
    ['streams.live_stream.*', ['active', 'created']],
    ['streams.*', ['ready', 'active', 'created']],
    ['access.*', ['granted']],
    ['*', ['granted', 'ready', 'active', 'created']],
    ['events.*', []],
  ])('filters type=%s', async (type, expected) => {
    const { key, e } = await tenantWithEvents();
    expect(ids(await list(key, `?type=${type}`))).toEqual(expected.map((k) => e[k as keyof typeof e].id));
  });

  it('treats _ in a wildcard literally', async () => {
    const { key, scope } = await tenantWithEvents();
    await emit(t, scope, 'streams.upload.asset_created');
    expect(ids(await list(key, '?type=streams.live_stream.*'))).toHaveLength(2);
    expect((await list(key, '?type=streams.live%stream.*')).status).toBe(422);
  });

  it('filters by subject and by created[gte]/[lte] (ISO or Unix seconds)', async () => {
    const { key, e } = await tenantWithEvents();
    expect(ids(await list(key, `?subject=${e.ready.subject}`))).toEqual([e.ready.id]);
    const at = (d: string) => t.ctx.db.updateTable('event_log').set({ created_at: d }).where('id', '=', e.created.id).execute();
    await at('2026-01-01T00:00:00Z');
    const since = await list(key, `?created[gte]=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`);
    expect(ids(since)).not.toContain(e.created.id);
    expect(ids(since)).toHaveLength(3);
    // Older than retention: neither listed nor fetched.
    expect(ids(await list(key, '?created[lte]=1767312000'))).toEqual([]);
    await at(new Date(Date.now() - 2 * 86_400_000).toISOString());
    const old = Math.floor((Date.now() - 86_400_000) / 1000);
    expect(ids(await list(key, `?created[lte]=${old}`))).toEqual([e.created.id]);
    expect(ids(await list(key, `?created[lt]=${old}&created[gt]=${old - 7 * 86_400}`))).toEqual([e.created.id]);
    expect((await list(key, '?created[gte]=yesterday')).status).toBe(422);
  });

  it('filters by delivery_success', async () => {
    const { key, scope } = await tenantWithEvents();
    const a = await insertEndpointRow(t, scope, ['*']);
    const b = await insertEndpointRow(t, scope, ['*']);
    const [x, y] = await emit(t, scope, 'streams.asset.updated', 2);
    const set = (eventId: string, endpointId: string, state: 'succeeded' | 'failed') =>
      t.ctx.db.updateTable('webhook_deliveries').set({ state }).where('event_id', '=', eventId).where('endpoint_id', '=', endpointId).execute();
    await set(x!.id, a, 'succeeded');
    await set(x!.id, b, 'succeeded');
    await set(y!.id, a, 'succeeded');
    await set(y!.id, b, 'failed');
    expect(ids(await list(key, '?delivery_success=true'))).toEqual([x!.id]);
    expect(ids(await list(key, '?delivery_success=false'))).toEqual([y!.id]);
    // A replay that succeeds counts for its endpoint.
    await t.ctx.db
      .insertInto('webhook_deliveries')
      .values({ id: 'whd_replay', tenant_id: scope.tenantId, livemode: false, endpoint_id: b, event_id: y!.id, kind: 'replay', state: 'succeeded' })
      .execute();
    expect(ids(await list(key, '?delivery_success=true'))).toEqual([y!.id, x!.id]);
    expect(ids(await list(key, '?delivery_success=false'))).toEqual([]);
    expect(ids(await list(key, '?delivery_success=true&type=access.*'))).toEqual([]);
  });

  it('pages with cursors', async () => {
    const { key, scope } = await tenantWithEvents();
    await emit(t, scope, 'streams.asset.deleted', 3);
    const all = ids(await list(key, '?limit=100'));
    expect(all).toHaveLength(7);
    const p1 = await list(key, '?limit=3');
    expect(ids(p1)).toEqual(all.slice(0, 3));
    const p2 = await list(key, `?limit=3&cursor=${p1.body.meta.pagination.next_cursor}`);
    expect(ids(p2)).toEqual(all.slice(3, 6));
    const p3 = await list(key, `?limit=3&starting_after=${all[5]}`);
    expect(ids(p3)).toEqual(all.slice(6));
    expect(p3.body.meta.pagination.has_more).toBe(false);
    expect((await list(key, '?limit=101')).status).toBe(422);
  });
});

describe('GET /v1/events/{id}', () => {
  it('fetches an evt_ id from the log; other ids are 404', async () => {
    const { key, e } = await tenantWithEvents();
    const res = await t.http().get(`/v1/events/${e.ready.id}`).set(bearer(key));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(e.ready);
    for (const id of ['evt_01kz0000000000000000000000', 'spring-gala-2026', 'ls_123']) {
      const missing = await t.http().get(`/v1/events/${id}`).set(bearer(key));
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('resource_not_found');
    }
  });
});

describe('access and isolation', () => {
  it("never shows another tenant's or environment's events", async () => {
    const a = await tenantWithEvents();
    const b = await t.tenant('B');
    for (const key of [b.keys.test.secret, a.keys.live.secret]) {
      expect(ids(await list(key))).toEqual([]);
      expect((await t.http().get(`/v1/events/${a.e.ready.id}`).set(bearer(key))).status).toBe(404);
    }
  });

  it('takes secret keys and restricted keys with platform:read', async () => {
    const { keys, key, e } = await tenantWithEvents();
    const rk = async (scopes: string[]) => (await t.http().post('/v1/keys').set(bearer(key)).send({ type: 'restricted', scopes })).body.data.secret as string;
    expect((await list(await rk(['platform:read']))).status).toBe(200);
    expect((await list(await rk(['streams:read']))).body.error.code).toBe('missing_scope');
    // A publishable key reads the public listing of ticketed events on the same path, never the log.
    const publicList = await t.http().get('/v1/events').set({ 'svc-publishable-key': keys.test.publishable });
    expect(publicList.status).toBe(200);
    expect(publicList.body.data).toEqual([]);
    expect((await t.http().get(`/v1/events/${e.ready.id}`).set({ 'svc-publishable-key': keys.test.publishable })).body.error.code).toBe('insufficient_permissions');
    expect((await list(await rk(['events:read']))).body.error.code).toBe('missing_scope');
    expect((await t.http().get('/v1/events')).status).toBe(401);
  });
});

describe('retention', () => {
  it('purges events older than 30 days with their deliveries', async () => {
    const { key, scope, e } = await tenantWithEvents();
    await insertEndpointRow(t, scope, ['*']);
    const [old] = await emit(t, scope, 'streams.asset.ready');
    await t.ctx.db.updateTable('event_log').set({ created_at: new Date(Date.now() - 31 * 86_400_000) }).where('id', '=', old!.id).execute();
    expect((await t.http().get(`/v1/events/${old!.id}`).set(bearer(key))).status).toBe(404);
    expect(await purgeOldEvents(t.ctx.db)).toBeGreaterThanOrEqual(1);
    expect(await t.ctx.db.selectFrom('event_log').select('id').where('id', '=', old!.id).execute()).toEqual([]);
    expect(await t.ctx.db.selectFrom('webhook_deliveries').select('id').where('event_id', '=', old!.id).execute()).toEqual([]);
    expect(ids(await list(key))).toContain(e.ready.id);
  });
});
