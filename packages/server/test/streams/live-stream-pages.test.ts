import type { Express } from 'express';
import { sql } from 'kysely';
import pino from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { createContext, type ServerConfig } from '../../src/boot/context';
import type { AppContext } from '../../src/core/context';
import type { NotificationListener } from '../../src/core/notify';
import { useTestServer } from '../harness';
import { client, createStream, expectStatus } from './live-fixtures';
import { createAsset } from './media-fixtures';

/**
 * A page of live streams is kept in memory while the tenant's streams in its environment are unchanged; every read
 * checks the list's version in PostgreSQL. Two app instances share one database here, as two server processes would.
 */

const t = useTestServer();
let keys: { test: { secret: string }; live: { secret: string } };
let tenantId: string;
let other: { secret: string };
let otherId: string;
let second: { ctx: AppContext; app: Express; listener: NotificationListener };

beforeAll(async () => {
  const created = await t.tenant('Pages Co');
  ({ keys } = created);
  tenantId = created.tenant.id;
  const otherTenant = await t.tenant('Other Co');
  other = otherTenant.keys.test;
  otherId = otherTenant.tenant.id;
  const { ctx, listener } = await createContext({ ...t.ctx.config } as ServerConfig, pino({ level: 'silent' }), 5);
  second = { ctx, listener, app: createApp(ctx) };
});

afterAll(async () => {
  await second?.listener.stop();
  await second?.ctx.db.destroy();
});

const PAGE = '/v1/streams/live_streams?limit=5&metadata[pages]=yes';
const listOn = async (app: Express, key = keys.test.secret, path = PAGE) =>
  expectStatus(await request(app).get(path).set('Authorization', `Bearer ${key}`), 200) as { data: any[]; meta: any };
const versionOf = async (livemode = false) => {
  const row = await t.ctx.db
    .selectFrom('list_versions')
    .select('version')
    .where('tenant_id', '=', tenantId)
    .where('livemode', '=', livemode)
    .where('list', '=', 'live_streams')
    .executeTakeFirst();
  return row ? Number(row.version) : 0;
};
const api = () => client(t, keys.test.secret);
const tagged = (body: object = {}) => createStream(t, keys.test.secret, { metadata: { pages: 'yes' }, ...body });

describe('pages of live streams kept in memory', () => {
  it('answers a page again unchanged, then shows every change made through the other instance at once', async () => {
    const first = await tagged();
    const page = await listOn(second.app);
    expect(page.data.map((s) => s.id)).toEqual([first.id]);
    expect(await listOn(second.app)).toEqual(page);

    const added = await tagged();
    expect((await listOn(second.app)).data.map((s) => s.id)).toEqual([added.id, first.id]);

    expectStatus(await api().patch(`/v1/streams/live_streams/${first.id}`, { metadata: { pages: 'yes', note: 'changed' } }), 200);
    expect((await listOn(second.app)).data.find((s) => s.id === first.id).metadata).toEqual({ pages: 'yes', note: 'changed' });

    const target = expectStatus(
      await api().post(`/v1/streams/live_streams/${first.id}/simulcast_targets`, { url: 'rtmp://example.com/live', stream_key: 'k' }),
      201,
    ).data;
    expect((await listOn(second.app)).data.find((s) => s.id === first.id).simulcast_targets.map((x: any) => x.id)).toEqual([target.id]);
    expectStatus(await api().delete(`/v1/streams/live_streams/${first.id}/simulcast_targets/${target.id}`), 200);
    expect((await listOn(second.app)).data.find((s) => s.id === first.id).simulcast_targets).toEqual([]);

    const playbackId = expectStatus(await api().post('/v1/streams/playback_ids', { resource: added.id, policy: 'public' }), 201).data;
    expect((await listOn(second.app)).data.find((s) => s.id === added.id).playback_ids.map((p: any) => p.id)).toContain(playbackId.id);
    expectStatus(await api().delete(`/v1/streams/playback_ids/${playbackId.id}`), 200);
    expect((await listOn(second.app)).data.find((s) => s.id === added.id).playback_ids.map((p: any) => p.id)).not.toContain(playbackId.id);

    const reset = expectStatus(await api().post(`/v1/streams/live_streams/${added.id}/reset_stream_key`), 200).data;
    expect((await listOn(second.app)).data.find((s) => s.id === added.id).ingest.stream_key).toBe(reset.ingest.stream_key);

    expectStatus(await api().delete(`/v1/streams/live_streams/${added.id}`), 200);
    expect((await listOn(second.app)).data.map((s) => s.id)).toEqual([first.id]);
  });

  it('shows a change written with SQL alone, with no notice to any process', async () => {
    const stream = await tagged();
    expect((await listOn(second.app)).data[0].external_id).toBeNull();
    await sql`update live_streams set external_id = 'set-by-sql' where id = ${stream.id}`.execute(t.ctx.db);
    expect((await listOn(second.app)).data[0].external_id).toBe('set-by-sql');
  });

  it('counts one version per transaction that commits, however many rows it changes, and none for one rolled back', async () => {
    const [a, b] = [await tagged(), await tagged()];
    const before = await versionOf();
    await t.ctx.db.transaction().execute(async (trx) => {
      await sql`update live_streams set metadata = metadata || '{"n":"1"}' where id in (${a.id}, ${b.id})`.execute(trx);
      await sql`update live_streams set metadata = metadata || '{"n":"2"}' where id = ${a.id}`.execute(trx);
    });
    expect(await versionOf()).toBe(before + 1);
    await expect(
      t.ctx.db.transaction().execute(async (trx) => {
        await sql`update live_streams set metadata = '{}' where id = ${a.id}`.execute(trx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await versionOf()).toBe(before + 1);
    expect((await listOn(second.app)).data.find((s) => s.id === a.id).metadata).toEqual({ pages: 'yes', n: '2' });
  });

  it('lets writers of one tenant commit side by side, each counted', async () => {
    const before = await versionOf();
    const made = await Promise.all(Array.from({ length: 12 }, () => api().post('/v1/streams/live_streams', { metadata: { side: 'by-side' } })));
    expect(made.map((r) => r.status)).toEqual(made.map(() => 201));
    expect(await versionOf()).toBe(before + 12);
    const listed = await listOn(second.app, keys.test.secret, '/v1/streams/live_streams?limit=20&metadata[side]=by-side');
    expect(listed.data).toHaveLength(12);
  });

  it('does not change the version for an asset playback id, nor for another tenant or environment', async () => {
    const before = await versionOf();
    await createStream(t, other.secret, { metadata: { pages: 'yes' } });
    const asset = await createAsset(t, keys.test.secret);
    const playbackId = expectStatus(await api().post('/v1/streams/playback_ids', { resource: asset.id, policy: 'signed' }), 201).data;
    expectStatus(await api().delete(`/v1/streams/playback_ids/${playbackId.id}`), 200);
    expect(await versionOf()).toBe(before);
    expect(await versionOf(true)).toBe(0);
  });

  it('never answers one tenant or environment with the page of another, even at the same version', async () => {
    const mine = await listOn(second.app);
    expect(mine.data.length).toBeGreaterThan(0);
    // The other tenant's and the live environment's versions made equal to this one's, so only the key tells them apart.
    const version = await versionOf();
    await sql`update list_versions set version = ${version} where list = 'live_streams' and tenant_id = ${otherId}`.execute(t.ctx.db);
    await sql`insert into list_versions (tenant_id, livemode, list, version, xact) values (${tenantId}, true, 'live_streams', ${version}, '1')`.execute(t.ctx.db);
    const theirs = await listOn(second.app, other.secret);
    expect(theirs.data).toHaveLength(1);
    expect(theirs.data[0].id).not.toBe(mine.data[0].id);
    expect((await listOn(second.app, keys.live.secret)).data).toEqual([]);
  });

  it('keeps pages of different queries apart', async () => {
    const all = await listOn(second.app, keys.test.secret, '/v1/streams/live_streams?limit=2&metadata[pages]=yes');
    const next = await listOn(second.app, keys.test.secret, `/v1/streams/live_streams?limit=2&metadata[pages]=yes&cursor=${encodeURIComponent(all.meta.pagination.next_cursor)}`);
    expect(next.data.map((s) => s.id)).not.toEqual(all.data.map((s) => s.id));
    const one = await listOn(second.app, keys.test.secret, '/v1/streams/live_streams?limit=1&metadata[pages]=yes');
    expect(one.data).toEqual(all.data.slice(0, 1));
    const none = await listOn(second.app, keys.test.secret, '/v1/streams/live_streams?limit=2&metadata[pages]=no');
    expect(none.data).toEqual([]);
  });
});
