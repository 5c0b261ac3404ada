import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type RunningS3 } from '../kit/s3-server';
import { expectError, expectStatus } from './media-fixtures';
import { makeMp4, useMediaNetworkTenant, useMediaTestServer, waitFor } from './media-network-fixtures';
import { createPlaybackLink } from '../../src/modules/streams/playback-ids/playback-ids.service';
import { streamsDeps } from '../../src/modules/streams/streams-deps';

let s3: RunningS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3?.stop());

const m = useMediaTestServer(() => ({ SVC_STORAGE_URL: s3.storageUrl('prod') }));
const { tenant, api } = useMediaNetworkTenant(m, 'Media in a bucket');
const pathOf = (url: string) => url.replace(m.url, '');

/** The bucket's keys under `prefix`, read through the S3 API as another client would. */
async function bucketKeys(prefix: string): Promise<string[]> {
  const port = new URL(s3.storageUrl().replace('s3://', 'http://')).port;
  const client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const page = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
  return (page.Contents ?? []).map((o) => o.Key!).sort();
}

describe('media network on S3-compatible storage (SVC_STORAGE_URL, s3rver)', () => {
  it('keeps the upload and the packaged HLS in the bucket, plays them behind the token, and deletes them with the asset', async () => {
    const created = expectStatus(await api().post('/v1/streams/uploads', { new_asset_settings: { playback_policy: 'signed' } }), 201).data;
    const put = await m.t.http().put(pathOf(created.url)).set('Content-Type', 'application/octet-stream').send(readFileSync(await makeMp4(m.dir)));
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const assetId = put.body.data.asset as string;
    const asset = await waitFor(
      async () => expectStatus(await api().get(`/v1/streams/assets/${assetId}`), 200).data,
      (a) => a.status !== 'preparing',
      60_000,
    );
    expect(asset).toMatchObject({ status: 'ready', source: 'upload', provider: 'media' });

    // The packaged HLS is in the bucket under the URL's prefix; the upload it came from is gone; the media
    // directory holds neither.
    const ref = (await m.t.ctx.db.selectFrom('assets').select('provider_asset_id').where('id', '=', assetId).executeTakeFirstOrThrow()).provider_asset_id!;
    const keys = await bucketKeys('prod/media/');
    expect(keys).toContain(`prod/media/assets/${ref}/index.m3u8`);
    expect(keys).toContain(`prod/media/assets/${ref}/0.ts`);
    expect(keys.filter((k) => k.startsWith('prod/media/uploads/'))).toEqual([]);
    expect(existsSync(join(m.dir, 'assets'))).toBe(false);
    expect(existsSync(join(m.dir, 'uploads'))).toBe(false);

    // Signed playback: refused without a token, played from the bucket with one; the player is never sent
    // to the bucket itself.
    const playbackId = asset.playback_ids[0].id as string;
    expectError(await m.t.http().get(`/v1/streams/playback/${playbackId}/media.m3u8`), 401, 'invalid_playback_token');
    const link = await createPlaybackLink(streamsDeps(m.t.ctx), { tenantId: tenant.id, livemode: true }, playbackId, new Date(Date.now() + 600_000));
    const media = await m.t.http().get(`/v1/streams/playback/${playbackId}/media.m3u8?token=${link.token}`);
    expect(media.status).toBe(200);
    expect(media.text).toContain('#EXT-X-ENDLIST');
    const segmentPath = media.text.split('\n').find((l) => l.startsWith('segments/'))!;
    expect(segmentPath).toContain('token=');
    const segment = await m.t.http().get(`/v1/streams/playback/${playbackId}/${segmentPath}`).buffer(true);
    expect(segment.status).toBe(200);
    expect(segment.headers['content-type']).toBe('video/mp2t');
    expect(Number(segment.headers['content-length'])).toBeGreaterThan(1000);

    expectStatus(await api().delete(`/v1/streams/assets/${assetId}`), 200);
    await waitFor(() => bucketKeys(`prod/media/assets/${ref}/`), (k) => k.length === 0);
  });

  it('answers 502 provider_unavailable to an upload while the storage is down, and takes the same URL once it is back', async () => {
    const created = expectStatus(await api().post('/v1/streams/uploads', {}), 201).data;
    const file = readFileSync(await makeMp4(m.dir));
    await s3.pause();
    try {
      const refused = await m.t.http().put(pathOf(created.url)).set('Content-Type', 'application/octet-stream').send(file);
      expectError(refused, 502, 'provider_unavailable');
    } finally {
      await s3.resume();
    }
    const put = await m.t.http().put(pathOf(created.url)).set('Content-Type', 'application/octet-stream').send(file);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  });
});
