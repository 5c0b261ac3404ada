import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import pino from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/boot/config';
import { createContext } from '../../src/boot/context';
import type { AppContext } from '../../src/core/context';
import type { NotificationListener } from '../../src/core/notify';
import { createPlaybackLink } from '../../src/modules/streams/playback-ids/playback-ids.service';
import { streamsDeps } from '../../src/modules/streams/streams-deps';
import { videoNetworksPart } from '../../src/modules/streams/streams-parts';
import { ENCRYPTION_KEY, OPERATOR_TOKEN } from '../harness';
import { startS3, type RunningS3 } from '../kit/s3-server';
import { expectError, expectStatus } from './media-fixtures';
import { publish, useMediaNetworkTenant, useMediaTestServer, waitFor, type Publisher } from './media-network-fixtures';

/**
 * Live HLS of the media network in the bucket (docs/self-hosting.md, Object storage): the media server copies each
 * new segment, then the playlist, as nginx-rtmp writes them, and an API server of another data directory, which
 * runs no media network, serves the live stream from the bucket behind the playback token.
 */
let s3: RunningS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3?.stop());

const m = useMediaTestServer(() => ({ SVC_STORAGE_URL: s3.storageUrl('prod') }));
const { tenant, api } = useMediaNetworkTenant(m, 'Live in a bucket');

/** The API server: the media server's database and bucket, its own (empty) data directory, no nginx. */
let other: { ctx: AppContext; listener: NotificationListener; http: () => ReturnType<typeof request>; dir: string };
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-api-'));
  const env = { DATABASE_URL: m.t.databaseUrl, SVC_OPERATOR_TOKEN: OPERATOR_TOKEN, SVC_ENCRYPTION_KEY: ENCRYPTION_KEY, SVC_DATA_DIR: dir };
  const config = loadConfig({ ...env, SVC_STORAGE_URL: s3.storageUrl('prod'), SVC_ROLE: 'api', SVC_RATE_LIMIT_PUBLIC: '100000', LOG_LEVEL: 'silent' });
  const { ctx, listener } = await createContext({ ...config, DATABASE_URL: m.t.databaseUrl, SVC_ENCRYPTION_KEY: ENCRYPTION_KEY }, pino({ level: 'silent' }), 2, undefined, ['api']);
  const app = createApp(ctx);
  other = { ctx, listener, http: () => request(app), dir };
});
afterAll(async () => {
  await other?.listener.stop();
  await other?.ctx.db.destroy();
  if (other) rmSync(other.dir, { recursive: true, force: true });
});

let encoder: Publisher | undefined;
afterAll(() => encoder?.child.kill('SIGKILL'));

const bytes = (res: request.Test) =>
  res.buffer(true).parse((r, cb) => {
    const chunks: Buffer[] = [];
    r.on('data', (c: Buffer) => chunks.push(c));
    r.on('end', () => cb(null, Buffer.concat(chunks)));
  });

describe('live HLS of the media network in the bucket (SVC_STORAGE_URL)', () => {
  it('is served by an API server on another directory, with the token only, as the media server writes it', async () => {
    expect(videoNetworksPart.of(other.ctx).names).not.toContain('media');
    const s = expectStatus(await api().post('/v1/streams/live_streams', {}), 201).data;
    const playbackId = s.playback_ids[0].id as string;
    const link = await createPlaybackLink(streamsDeps(m.t.ctx), { tenantId: tenant.id, livemode: true }, playbackId, new Date(Date.now() + 600_000));
    const token = link.token!;
    const base = `/v1/streams/playback/${playbackId}`;
    encoder = publish(m.media.rtmpUrl, s.ingest.stream_key, 20);

    // The live playlist, from the bucket, names its segments with the viewer's token.
    const playlist = await waitFor(
      async () => other.http().get(`${base}/media.m3u8?token=${link.token}`),
      (res) => res.status !== 200 || (res.text.match(/segments\/\d+\.ts/g) ?? []).length >= 2,
      15_000,
    );
    expect(playlist.status).toBe(200);
    expect(playlist.headers['cache-control']).toBe('public, max-age=1');
    const master = await other.http().get(`${base}.m3u8?token=${link.token}`);
    expect(master.status).toBe(200);
    expect(master.text).toContain(`${playbackId}/media.m3u8?token=`);
    const segmentPath = playlist.text.split('\n').find((l) => l.startsWith('segments/'))!;
    expect(segmentPath).toContain(`token=${encodeURIComponent(token)}`);
    const segment = await bytes(other.http().get(`${base}/${segmentPath}`));
    expect(segment.status).toBe(200);
    expect(segment.headers['content-type']).toMatch(/video\/mp2t/);
    expect(segment.headers['cache-control']).toBe('public, max-age=3600, immutable');
    // The same bytes as the media server's own answer; none of it came from the API server's directory.
    const n = /segments\/(\d+)\.ts/.exec(segmentPath)![1];
    const own = await bytes(m.t.http().get(`${base}/${segmentPath}`));
    expect(own.status).toBe(200);
    expect((segment.body as Buffer).equals(own.body as Buffer)).toBe(true);
    expect(readdirSync(other.dir)).toEqual([]);

    // In the bucket, each object with the cache header the CDN design asks for.
    const port = new URL(s3.storageUrl().replace('s3://', 'http://')).port;
    const client = new S3Client({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    const ref = (await m.t.ctx.db.selectFrom('live_streams').select('provider_ref').where('id', '=', s.id).executeTakeFirstOrThrow()).provider_ref;
    const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `prod/media/live/${ref}/${n}.ts` }));
    expect(object.CacheControl).toBe('public, max-age=3600, immutable');
    const listed = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `prod/media/live/${ref}/index.m3u8` }));
    expect(listed.CacheControl).toBe('public, max-age=1');

    // Without a token, with a bad one, or with another stream's, the API server refuses playlist and segment.
    const unsigned = `${base}/${segmentPath.replace(/\?token=.*$/, '')}`;
    expectError(await other.http().get(unsigned), 401, 'invalid_playback_token');
    expectError(await other.http().get(`${unsigned}?token=${token.slice(0, -4)}AAAA`), 401, 'invalid_playback_token');
    expectError(await other.http().get(`${base}/media.m3u8?token=not-a-token`), 401, 'invalid_playback_token');
    const another = expectStatus(await api().post('/v1/streams/live_streams', {}), 201).data;
    const anotherLink = await createPlaybackLink(streamsDeps(m.t.ctx), { tenantId: tenant.id, livemode: true }, another.playback_ids[0].id, new Date(Date.now() + 600_000));
    expectError(await other.http().get(`${unsigned}?token=${anotherLink.token}`), 401, 'invalid_playback_token');
  }, 40_000);
});
