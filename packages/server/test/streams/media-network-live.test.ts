import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventsOf, expectError, expectStatus, typesOf } from './media-fixtures';
import { publish, run, sweepAfterReconnectWindow, useMediaNetworkTenant, useMediaTestServer, waitFor } from './media-network-fixtures';

const m = useMediaTestServer();
const { tenant, api } = useMediaNetworkTenant(m, 'Media');
const getStream = async (id: string) => expectStatus(await api().get(`/v1/streams/live_streams/${id}`), 200).data as Record<string, any>;
const createStream = async (body: object = {}) => expectStatus(await api().post('/v1/streams/live_streams', body), 201).data as Record<string, any>;
const pathOf = (url: string) => url.replace(m.url, '');

/** A customer entitled to the stream opens a playback session; its grant's source is the signed HLS link. */
async function sessionSource(streamId: string, customer = 'viewer-1'): Promise<string> {
  expectStatus(await api().post('/v1/access/entitlements', { customer, resource: { type: 'ls', id: streamId } }, { 'Idempotency-Key': randomUUID() }), 201);
  const session = expectStatus(await api().post('/v1/access/sessions', { resource: streamId, customer, device_id: 'laptop' }), 201).data;
  return session.grant.sources[0].url as string;
}

describe('the media network: RTMP ingest to signed HLS, recording and uploads', () => {
  it('is the live-mode network: RTMP address of this server, no SRT or WHIP', async () => {
    const s = await createStream();
    expect(s.provider).toBe('media');
    expect(s.ingest.rtmp_url).toBe(m.media.rtmpUrl);
    expect(s.ingest.rtmp_url).toMatch(/^rtmp:\/\/127\.0\.0\.1:\d+\/live$/);
    expect(s.ingest.srt_url).toBeNull();
    expect(s.ingest.whip_url).toBeNull();
  });

  it('publishes, goes active with its events, plays signed HLS, ends idle and its recording becomes a ready asset', async () => {
    const s = await createStream({ reconnect_window: 60 });
    const encoder = publish(m.media.rtmpUrl, s.ingest.stream_key, 10);
    await waitFor(() => getStream(s.id), (x) => x.status === 'active');
    expect(typesOf(await eventsOf(m.t, tenant.id, s.id))).toEqual([
      'streams.live_stream.created',
      'streams.live_stream.updated',
      'streams.live_stream.active',
    ]);

    // nginx's lines and the hooks' logs name the stream, never its key.
    expect(m.logs.join('')).toContain('encoder connected');
    expect(m.logs.join('')).toContain(`${s.ingest.stream_key.split('.')[0]}.[redacted]`);
    expect(m.logs.join('')).not.toContain(s.ingest.stream_key.split('.')[1]);

    // A viewer's session hands out the signed link; playlists and segments play with its token only.
    const source = await sessionSource(s.id);
    expect(source).toContain('token=');
    const master = await m.t.http().get(pathOf(source));
    expect(master.status).toBe(200);
    expect(master.headers['content-type']).toMatch(/application\/vnd\.apple\.mpegurl/);
    expect(master.headers['access-control-allow-origin']).toBe('*');
    const mediaPath = master.text.split('\n').find((l) => l.includes('media.m3u8'))!;
    const base = pathOf(source).replace(/\.m3u8\?.*$/, '');
    const playlist = await waitFor(
      async () => (await m.t.http().get(`${base.replace(/[^/]+$/, '')}${mediaPath}`)).text,
      (text) => (text.match(/segments\/\d+\.ts/g) ?? []).length >= 2,
    );
    expect(playlist).toContain('#EXTINF');
    const segmentPath = playlist.split('\n').find((l) => l.startsWith('segments/'))!;
    const segmentUrl = `${base}/${segmentPath}`;
    const segment = await m.t.http().get(segmentUrl).buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(segment.status).toBe(200);
    expect(segment.headers['content-type']).toMatch(/video\/mp2t/);
    expect(segment.headers['cache-control']).toBe('public, max-age=3600, immutable');
    const file = join(m.dir, 'segment.ts');
    writeFileSync(file, segment.body as Buffer);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'json', file]);
    const streams = (JSON.parse(stdout) as { streams: { codec_name: string; width?: number }[] }).streams;
    expect(streams.map((x) => x.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(streams.find((x) => x.codec_name === 'h264')!.width).toBe(320);

    // Without a token, or with another stream's, the same segment is refused.
    const unsigned = segmentUrl.replace(/\?token=.*$/, '');
    expectError(await m.t.http().get(unsigned), 401, 'invalid_playback_token');
    const other = await createStream();
    const otherToken = new URL(await sessionSource(other.id)).searchParams.get('token')!;
    expectError(await m.t.http().get(`${unsigned}?token=${encodeURIComponent(otherToken)}`), 401, 'invalid_playback_token');

    // The encoder stops: disconnected, then idle once the reconnect window passed (driven by the clock).
    expect(await encoder.exited).toBe(0);
    await waitFor(() => getStream(s.id), (x) => x.status === 'disconnected');
    await sweepAfterReconnectWindow(m);
    expect((await getStream(s.id)).status).toBe('idle');
    expect(typesOf(await eventsOf(m.t, tenant.id, s.id)).slice(3)).toEqual(['streams.live_stream.disconnected', 'streams.live_stream.idle']);

    const recording = (await m.t.ctx.db.selectFrom('assets').select('id').where('live_stream_id', '=', s.id).executeTakeFirstOrThrow()).id;
    const asset = await waitFor(
      async () => expectStatus(await api().get(`/v1/streams/assets/${recording}`), 200).data,
      (a) => a.status !== 'preparing',
      60_000,
    );
    expect(asset).toMatchObject({ status: 'ready', source: 'recording', live_stream: s.id });
    expect(asset.duration).toBeGreaterThan(5);
    expect(typesOf(await eventsOf(m.t, tenant.id, recording))).toContain('streams.asset.ready');
  }, 90_000);

  it('answers nginx\'s callbacks only with the secret nginx was given', async () => {
    const hook = (secret: string) =>
      m.t.http().post(`/internal/media/on_publish?secret=${secret}`).type('form').send({ app: 'live', name: 'x', clientid: '1', call: 'publish' });
    expect((await hook('wrong')).status).toBe(404);
    expect((await hook(m.media.network.options.hookSecret)).status).toBe(403);
  });

  it('refuses a wrong key and a disabled stream at once', async () => {
    const s = await createStream();
    const wrong = publish(m.media.rtmpUrl, `${s.ingest.stream_key.split('.')[0]}.${'x'.repeat(40)}`, 5);
    expect(await wrong.exited).not.toBe(0);
    const unknown = publish(m.media.rtmpUrl, 'not-a-key', 5);
    expect(await unknown.exited).not.toBe(0);
    expectStatus(await api().post(`/v1/streams/live_streams/${s.id}/disable`), 200);
    const disabled = publish(m.media.rtmpUrl, s.ingest.stream_key, 5);
    expect(await disabled.exited).not.toBe(0);
    expect((await getStream(s.id)).status).toBe('disabled');
    expect(typesOf(await eventsOf(m.t, tenant.id, s.id))).toEqual(['streams.live_stream.created', 'streams.live_stream.updated']);
  }, 30_000);

  it('drops the running encoder when the key is reset, and refuses the old key', async () => {
    const s = await createStream();
    const encoder = publish(m.media.rtmpUrl, s.ingest.stream_key, 30);
    await waitFor(() => getStream(s.id), (x) => x.status === 'active');
    const reset = expectStatus(await api().post(`/v1/streams/live_streams/${s.id}/reset_stream_key`), 200).data;
    expect(reset.stream_key).not.toBe(s.ingest.stream_key);
    expect(await encoder.exited).not.toBe(0);
    await waitFor(() => getStream(s.id), (x) => x.status === 'disconnected');
    const again = publish(m.media.rtmpUrl, s.ingest.stream_key, 5);
    expect(await again.exited).not.toBe(0);
    expect((await getStream(s.id)).status).toBe('disconnected');
  }, 60_000);
});
