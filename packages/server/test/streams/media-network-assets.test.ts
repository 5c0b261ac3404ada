import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventsOf, expectError, expectStatus, typesOf } from './media-fixtures';
import { makeMp4, run, useMediaNetworkTenant, useMediaTestServer, waitFor } from './media-network-fixtures';

const m = useMediaTestServer();
const { tenant, api } = useMediaNetworkTenant(m, 'Media assets');
const pathOf = (url: string) => url.replace(m.url, '');
const getAsset = async (id: string) => expectStatus(await api().get(`/v1/streams/assets/${id}`), 200).data as Record<string, any>;
const settled = (id: string) => waitFor(() => getAsset(id), (a) => a.status !== 'preparing', 60_000);
const binary = (req: ReturnType<ReturnType<typeof m.t.http>['get']>) =>
  req.buffer(true).parse((res, cb) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  });

/** Creates an upload, `PUT`s `body` to its one-time URL and answers the asset it made. */
async function upload(body: Buffer, policy: 'public' | 'signed' = 'public'): Promise<string> {
  const created = expectStatus(await api().post('/v1/streams/uploads', { new_asset_settings: { playback_policy: policy } }), 201).data;
  const put = await m.t.http().put(pathOf(created.url)).set('Content-Type', 'application/octet-stream').send(body);
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return put.body.data.asset as string;
}

describe('media network assets: uploads probed and packaged with ffmpeg', () => {
  it('makes a short MP4 upload a ready asset with its duration, playable as on-demand HLS', async () => {
    const asset = await upload(readFileSync(await makeMp4(m.dir)));
    const ready = await settled(asset);
    expect(ready).toMatchObject({ status: 'ready', source: 'upload', provider: 'media', error: null });
    expect(ready.duration).toBeGreaterThan(0.5);
    expect(ready.duration).toBeLessThan(2);
    expect(typesOf(await eventsOf(m.t, tenant.id, asset))).toEqual(['streams.asset.created', 'streams.asset.ready']);

    // A public playback id plays without a token: a VOD playlist whose segments ffprobe reads as H.264.
    const playbackId = ready.playback_ids[0].id;
    const media = await m.t.http().get(`/v1/streams/playback/${playbackId}/media.m3u8`);
    expect(media.status).toBe(200);
    expect(media.text).toContain('#EXT-X-ENDLIST');
    expect(media.headers['cache-control']).toBe('public, max-age=60');
    const segment = await binary(m.t.http().get(`/v1/streams/playback/${playbackId}/${media.text.split('\n').find((l) => l.startsWith('segments/'))}`));
    expect(segment.status).toBe(200);
    const file = join(m.dir, 'vod.ts');
    writeFileSync(file, segment.body as Buffer);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', file]);
    expect(stdout.split('\n').filter(Boolean)[0]).toBe('h264');
  });

  it('makes an upload that is not media an errored asset with a clear error', async () => {
    const asset = await upload(Buffer.from('these are the minutes of the meeting, not a video\n'.repeat(50)));
    const errored = await settled(asset);
    expect(errored.status).toBe('errored');
    expect(errored.error).toMatch(/not a video or audio file/);
    expect(typesOf(await eventsOf(m.t, tenant.id, asset))).toEqual(['streams.asset.created', 'streams.asset.errored']);
  });

  it('never lets an uploaded playlist make ffmpeg read other files or addresses', async () => {
    // A playlist naming a real video file of the server's disk: read, it would be "media".
    const local = join(m.dir, 'local.ts');
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', await makeMp4(m.dir), '-c', 'copy', '-f', 'mpegts', local]);
    const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:1,\n${local}\n#EXT-X-ENDLIST\n`;
    const asset = await upload(Buffer.from(playlist));
    const errored = await settled(asset);
    expect(errored.status).toBe('errored');
    expect(errored.error).toMatch(/not a video or audio file/);
  });

  it('fetches an asset URL under the webhook rules: a loopback or private address is errored, never fetched', async () => {
    // The names resolve when the file is fetched: to loopback for one, to a private address for the other.
    m.t.ctx.resolveHost = async (host) => [{ address: host.startsWith('local') ? '127.0.0.1' : '10.1.2.3', family: 4 }];
    try {
      const loopback = expectStatus(await api().post('/v1/streams/assets', { url: 'https://local.example.com/video.mp4' }), 201).data;
      expect((await settled(loopback.id)).error).toMatch(/cannot be fetched.*loopback/);
      const rebound = expectStatus(await api().post('/v1/streams/assets', { url: 'https://videos.example.com/show.mp4' }), 201).data;
      const errored = await settled(rebound.id);
      expect(errored.error).toMatch(/cannot be fetched.*not a public address/);
      expect(typesOf(await eventsOf(m.t, tenant.id, rebound.id))).toEqual(['streams.asset.created', 'streams.asset.errored']);
    } finally {
      m.t.ctx.resolveHost = undefined;
    }
  });

  it('refuses clips: the service\'s own media network cannot make them', async () => {
    const asset = await upload(readFileSync(await makeMp4(m.dir)));
    await settled(asset);
    const res = await api().post(`/v1/streams/assets/${asset}/clips`, { start_time: 0, end_time: 0.5 });
    expectError(res, 422, 'provider_rejected');
    expect(res.body.error.message).toMatch(/own media network/);
  });
});
