import { describe, expect, it } from 'vitest';
import { housekeep } from '../../src/modules/streams/network/media/media-housekeeping';
import { mkdirSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { eventsOf, expectError, expectStatus, typesOf } from './media-fixtures';
import { publish, sweepAfterReconnectWindow, useMediaNetworkTenant, useMediaTestServer, waitFor } from './media-network-fixtures';

const m = useMediaTestServer();
const { tenant, api } = useMediaNetworkTenant(m, 'Media operations');
const getStream = async (id: string) => expectStatus(await api().get(`/v1/streams/live_streams/${id}`), 200).data as Record<string, any>;
const createStream = async () => expectStatus(await api().post('/v1/streams/live_streams', {}), 201).data as Record<string, any>;
const recordingsOf = (id: string) => m.t.ctx.db.selectFrom('assets').select(['id', 'status']).where('live_stream_id', '=', id).execute();

describe('media network operations', () => {
  it('continues the same broadcast when the encoder returns within the reconnect window', async () => {
    const s = await createStream();
    const first = publish(m.media.rtmpUrl, s.ingest.stream_key, 4);
    await waitFor(() => getStream(s.id), (x) => x.status === 'active');
    await first.exited;
    await waitFor(() => getStream(s.id), (x) => x.status === 'disconnected');
    const second = publish(m.media.rtmpUrl, s.ingest.stream_key, 4);
    await waitFor(() => getStream(s.id), (x) => x.status === 'active');
    expect(await recordingsOf(s.id)).toHaveLength(1);
    await second.exited;
    await waitFor(() => getStream(s.id), (x) => x.status === 'disconnected');
    await sweepAfterReconnectWindow(m);
    expect(typesOf(await eventsOf(m.t, tenant.id, s.id))).toEqual([
      'streams.live_stream.created',
      'streams.live_stream.updated',
      'streams.live_stream.active',
      'streams.live_stream.disconnected',
      'streams.live_stream.updated',
      'streams.live_stream.active',
      'streams.live_stream.disconnected',
      'streams.live_stream.idle',
    ]);
    // One recording of both parts.
    const [recording] = await recordingsOf(s.id);
    const asset = await waitFor(async () => expectStatus(await api().get(`/v1/streams/assets/${recording!.id}`), 200).data, (a) => a.status !== 'preparing', 60_000);
    expect(asset.status).toBe('ready');
    expect(asset.duration).toBeGreaterThan(6);
  }, 90_000);

  it('restarts nginx when it dies and reconciles the stream whose encoder it lost', async () => {
    const s = await createStream();
    const encoder = publish(m.media.rtmpUrl, s.ingest.stream_key, 30);
    await waitFor(() => getStream(s.id), (x) => x.status === 'active');
    const before = m.media.nginxPid()!;
    process.kill(before, 'SIGKILL');
    expect(await encoder.exited).not.toBe(0);
    await waitFor(async () => m.media.nginxPid(), (pid) => pid !== undefined && pid !== before);
    await waitFor(() => getStream(s.id), (x) => x.status === 'disconnected');
    // The restarted nginx takes the encoder again, within the window: the broadcast goes on.
    const again = publish(m.media.rtmpUrl, s.ingest.stream_key, 5);
    await waitFor(() => getStream(s.id), (x) => x.status === 'active');
    await again.exited;
  }, 60_000);

  it('deletes live HLS no encoder feeds once it is older than the DVR window, and reports disk use', async () => {
    const { layout } = m.media.network;
    const stale = join(layout.live, 'mli_00000000000000000000');
    mkdirSync(stale, { recursive: true });
    writeFileSync(join(stale, '0.ts'), Buffer.alloc(1000));
    const old = new Date(Date.now() - 3 * 3_600_000);
    utimesSync(join(stale, '0.ts'), old, old);
    const bytes = await housekeep(m.t.ctx, m.media.network);
    expect(existsSync(stale)).toBe(false);
    expect(bytes).toBeGreaterThan(0);
    expect(m.media.network.diskFull).toBe(false);
  });

  it('refuses new encoders and uploads while the media disk is over its bound', async () => {
    const s = await createStream();
    m.media.network.diskFull = true;
    try {
      const refused = publish(m.media.rtmpUrl, s.ingest.stream_key, 3);
      expect(await refused.exited).not.toBe(0);
      expect((await getStream(s.id)).status).toBe('idle');
      expectError(await api().post('/v1/streams/uploads', {}), 409, 'provider_storage_exhausted');
    } finally {
      m.media.network.diskFull = false;
    }
  });
});
