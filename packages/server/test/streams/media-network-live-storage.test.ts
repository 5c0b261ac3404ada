import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlaybackLink } from '../../src/modules/streams/playback-ids/playback-ids.service';
import { streamsDeps } from '../../src/modules/streams/streams-deps';
import { ENCRYPTION_KEY, OPERATOR_TOKEN } from '../harness';
import { startS3, type RunningS3 } from '../kit/s3-server';
import { runServerProcess, type ServerProcess } from '../process';
import { expectStatus } from './media-fixtures';
import { publish, useMediaNetworkTenant, useMediaTestServer, waitFor, type Publisher } from './media-network-fixtures';

/**
 * Live HLS of the media network in the bucket (docs/self-hosting.md, Object storage): the media server copies each
 * new segment, then the playlist, as nginx-rtmp writes them, and an API server in another process (`SVC_ROLE=api`,
 * its own data directory, no media network) opens the viewer's session, makes the system signing key and the
 * links, and serves the live stream from the bucket behind the playback token.
 */
let s3: RunningS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3?.stop());

const m = useMediaTestServer(() => ({ SVC_STORAGE_URL: s3.storageUrl('prod') }));
const { tenant, api } = useMediaNetworkTenant(m, 'Live in a bucket');

/** The API server: another process (`SVC_ROLE=api`), on the media server's database and bucket, with its own data directory. */
let other: { process: ServerProcess; url: string; dir: string };
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-api-'));
  const server = runServerProcess({
    SVC_ROLE: 'api',
    SVC_WORKERS: '1',
    DATABASE_URL: m.t.databaseUrl,
    SVC_STORAGE_URL: s3.storageUrl('prod'),
    SVC_DATA_DIR: dir,
    SVC_OPERATOR_TOKEN: OPERATOR_TOKEN,
    SVC_ENCRYPTION_KEY: ENCRYPTION_KEY,
    SVC_RATE_LIMIT_PUBLIC: '100000',
  });
  other = { process: server, url: await server.url, dir };
});
afterAll(async () => {
  if (other?.process.child.exitCode === null) {
    other.process.child.kill('SIGTERM');
    await other.process.exited;
  }
  if (other) rmSync(other.dir, { recursive: true, force: true });
});

let encoder: Publisher | undefined;
afterAll(() => encoder?.child.kill('SIGKILL'));

/** A GET to the API server: status, headers, text and bytes. */
async function get(path: string) {
  const res = await fetch(`${other.url}${path}`);
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, text: body.toString('utf8') };
}
/** A request to the API server on the tenant's live secret key. */
const onApi = (method: 'get' | 'post', path: string) => request(other.url)[method](path).set('Authorization', `Bearer ${tenant.sk}`);
const refused = async (path: string) => {
  const res = await get(path);
  expect(res.status, res.text).toBe(401);
  expect(JSON.parse(res.text).error.code).toBe('invalid_playback_token');
};

const bytes = (res: request.Test) =>
  res.buffer(true).parse((r, cb) => {
    const chunks: Buffer[] = [];
    r.on('data', (c: Buffer) => chunks.push(c));
    r.on('end', () => cb(null, Buffer.concat(chunks)));
  });

describe('live HLS of the media network in the bucket (SVC_STORAGE_URL)', () => {
  it('is served by an API process on another directory, with the token only, as the media server writes it', async () => {
    const s = expectStatus(await api().post('/v1/streams/live_streams', {}), 201).data;
    const playbackId = s.playback_ids[0].id as string;
    encoder = publish(m.media.rtmpUrl, s.ingest.stream_key, 20);

    // The API process opens a viewer's session: it makes the environment's system key (sealed in the database) and
    // sends the player to the address the media process recorded.
    const customer = { customer: 'viewer-1' };
    const entitled = await onApi('post', '/v1/access/entitlements').set('Idempotency-Key', randomUUID()).send({ ...customer, resource: { type: 'ls', id: s.id } });
    expectStatus(entitled, 201);
    const session = expectStatus(await onApi('post', '/v1/access/sessions').send({ resource: s.id, ...customer, device_id: 'tv' }), 201).data;
    const source = session.grant.sources[0].url as string;
    expect(source.startsWith(`${m.url}/v1/streams/playback/${playbackId}.m3u8?token=`), source).toBe(true);
    const keys = await m.t.ctx.db.selectFrom('playback_signing_keys').selectAll().where('tenant_id', '=', tenant.id).execute();
    expect(keys.map((k) => [k.kind, k.provider, k.livemode])).toEqual([['system', 'media', true]]);
    expect(keys[0].private_key_sealed).not.toContain('PRIVATE KEY');
    const token = new URL(source).searchParams.get('token')!;
    const base = `/v1/streams/playback/${playbackId}`;

    // The live playlist, from the bucket, names its segments with the viewer's token.
    const playlist = await waitFor(
      () => get(`${base}/media.m3u8?token=${token}`),
      (res) => res.status !== 200 || (res.text.match(/segments\/\d+\.ts/g) ?? []).length >= 2,
      15_000,
    );
    expect(playlist.status).toBe(200);
    expect(playlist.headers.get('cache-control')).toBe('public, max-age=1');
    const master = await get(`${base}.m3u8?token=${token}`);
    expect(master.status).toBe(200);
    expect(master.text).toContain(`${playbackId}/media.m3u8?token=`);
    const segmentPath = playlist.text.split('\n').find((l) => l.startsWith('segments/'))!;
    expect(segmentPath).toContain(`token=${encodeURIComponent(token)}`);
    const segment = await get(`${base}/${segmentPath}`);
    expect(segment.status).toBe(200);
    expect(segment.headers.get('content-type')).toMatch(/video\/mp2t/);
    expect(segment.headers.get('cache-control')).toBe('public, max-age=3600, immutable');
    // The same bytes as the media server's own answer; none of it came from the API server's directory.
    const n = /segments\/(\d+)\.ts/.exec(segmentPath)![1];
    const own = await bytes(m.t.http().get(`${base}/${segmentPath}`));
    expect(own.status).toBe(200);
    expect(segment.body.equals(own.body as Buffer)).toBe(true);
    expect(readdirSync(other.dir)).not.toContain('media');

    // The link plays where it points too (the media process, from its disk), and so do the API process's heartbeat
    // grant and staff preview link, whose tokens the media process signed with nothing.
    expect((await fetch(source)).status).toBe(200);
    const beat = expectStatus(await onApi('post', `/v1/access/sessions/${session.id}/heartbeat`).send(customer), 200).data;
    const renewed = new URL(beat.grant.sources[0].url as string);
    expect(renewed.origin).toBe(m.url);
    expect((await get(`${renewed.pathname}${renewed.search}`)).status).toBe(200);
    const preview = expectStatus(await onApi('post', `/v1/streams/playback_ids/${playbackId}/preview_links`), 201).data;
    const previewUrl = new URL(preview.url as string);
    expect(previewUrl.origin).toBe(m.url);
    expect((await get(`${previewUrl.pathname}${previewUrl.search}`)).status).toBe(200);
    expect(await m.t.ctx.db.selectFrom('playback_signing_keys').select('id').where('tenant_id', '=', tenant.id).execute()).toHaveLength(1);
    expect(other.process.output()).not.toContain('media network running');

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
    await refused(unsigned);
    await refused(`${unsigned}?token=${token.slice(0, -4)}AAAA`);
    await refused(`${base}/media.m3u8?token=not-a-token`);
    const another = expectStatus(await api().post('/v1/streams/live_streams', {}), 201).data;
    const anotherLink = await createPlaybackLink(streamsDeps(m.t.ctx), { tenantId: tenant.id, livemode: true }, another.playback_ids[0].id, new Date(Date.now() + 600_000));
    await refused(`${unsigned}?token=${anotherLink.token}`);
  }, 40_000);
});
