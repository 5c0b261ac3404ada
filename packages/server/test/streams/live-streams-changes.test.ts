import { describe, expect, it } from 'vitest';
import { SimulatedVideoNetwork } from '../../src/modules/streams/network/simulated-network';
import type { LiveInputSettings } from '../../src/modules/streams/network/video-network';
import { useTestServer } from '../harness';
import {
  client,
  createStream,
  expectError,
  expectStatus,
  setVideo,
  simulate,
  streamEvents,
  useLiveTenant,
} from './live-fixtures';
import { videoNetworksPart } from '../../src/modules/streams';

const t = useTestServer();
const { tenant, api } = useLiveTenant(t, 'Live Co');

describe('PATCH /v1/streams/live_streams/{id}', () => {
  it('changes settings, metadata and external_id with one updated event carrying previous values', async () => {
    const stream = await createStream(t, tenant.key, { metadata: { a: '1' } });
    const res = await api().patch(`/v1/streams/live_streams/${stream.id}`, {
      latency_mode: 'standard',
      reconnect_window: 5,
      metadata: { b: '2' },
      external_id: 'patched',
    });
    expect(expectStatus(res, 200).data).toMatchObject({
      latency_mode: 'standard',
      reconnect_window: 5,
      metadata: { b: '2' },
      external_id: 'patched',
      sequence: 2,
    });
    const events = await streamEvents(t, tenant.id, stream.id);
    expect(events.map((e) => e.type)).toEqual(['streams.live_stream.created', 'streams.live_stream.updated']);
    expect(events[1]!.data.previous_attributes).toEqual({
      status: 'idle',
      latency_mode: 'low',
      reconnect_window: 60,
      metadata: { a: '1' },
      external_id: null,
    });
    // Clearing the external id, and a PATCH that changes nothing (no event).
    expect(expectStatus(await api().patch(`/v1/streams/live_streams/${stream.id}`, { external_id: null }), 200).data.external_id).toBeNull();
    expectStatus(await api().patch(`/v1/streams/live_streams/${stream.id}`, { latency_mode: 'standard' }), 200);
    expect(await streamEvents(t, tenant.id, stream.id)).toHaveLength(3);
  });

  it('validates limits, external_id uniqueness and what the network refuses', async () => {
    const stream = await createStream(t, tenant.key, { audio_only: true, latency_mode: 'standard' });
    await createStream(t, tenant.key, { external_id: 'taken' });
    const path = `/v1/streams/live_streams/${stream.id}`;
    expectError(await api().patch(path, { reconnect_window: 1801 }), 422, 'validation_failed', { param: 'reconnect_window' });
    expectError(await api().patch(path, { reconnect_window: -1 }), 422, 'validation_failed', { param: 'reconnect_window' });
    expectError(await api().patch(path, { metadata: { ['k'.repeat(41)]: 'v' } }), 422, 'validation_failed');
    expectError(await api().patch(path, { external_id: 'taken' }), 409, 'external_id_taken', { param: 'external_id' });
    expectError(await api().patch(path, { latency_mode: 'low' }), 422, 'provider_rejected', { param: 'latency_mode' });
    expect(expectStatus(await api().get(path), 200).data.latency_mode).toBe('standard');
    expectError(await api().patch('/v1/streams/live_streams/ls_01h455vb4pex5vsknk084sn02q', { reconnect_window: 1 }), 404, 'resource_not_found');
  });
});

describe('POST /v1/streams/live_streams/{id}/reset_stream_key', () => {
  it('gives a new key at once; the old key is refused by the encoder and the new one taken', async () => {
    const stream = await createStream(t, tenant.key);
    const oldKey = stream.ingest.stream_key;
    const reset = expectStatus(await api().post(`/v1/streams/live_streams/${stream.id}/reset_stream_key`), 200).data;
    expect(reset.ingest.stream_key).not.toBe(oldKey);
    expect(reset.ingest.srt_passphrase).not.toBe(stream.ingest.srt_passphrase);
    expectError(await simulate(t, tenant.key, stream.id, { event: 'connected', stream_key: oldKey }), 409, 'stream_key_rejected', { param: 'stream_key' });
    const connected = expectStatus(await simulate(t, tenant.key, stream.id, { event: 'connected', stream_key: reset.ingest.stream_key }), 200);
    expect(connected.data.status).toBe('connecting');
    const events = await streamEvents(t, tenant.id, stream.id);
    expect(events.map((e) => e.type)).toEqual(['streams.live_stream.created', 'streams.live_stream.updated', 'streams.live_stream.updated']);
    expect(events[1]!.data.previous_attributes).toEqual({ status: 'idle' });
  });
});

describe('simulcast targets', () => {
  it('adds and removes targets with updated events; a seventh is refused', async () => {
    const targets = Array.from({ length: 5 }, (_, i) => ({ url: `rtmp://t${i}.example.com/app`, stream_key: `k${i}` }));
    const stream = await createStream(t, tenant.key, { simulcast_targets: targets });
    const path = `/v1/streams/live_streams/${stream.id}/simulcast_targets`;
    const sixth = expectStatus(await api().post(path, { url: 'rtmps://six.example.com/app', stream_key: 'secret-six' }), 201).data;
    expect(sixth).toMatchObject({ object: 'simulcast_target', status: 'active', url: 'rtmps://six.example.com/app' });
    expect(sixth.id).toMatch(/^sct_/);
    expect(sixth).not.toHaveProperty('stream_key');
    expectError(await api().post(path, { url: 'rtmps://seven.example.com/app', stream_key: 'k' }), 422, 'validation_failed', { param: 'simulcast_targets' });
    const rejected = await api().post(`/v1/streams/live_streams/${(await createStream(t, tenant.key)).id}/simulcast_targets`, {
      url: 'rtmp://encoder.invalid/app',
      stream_key: 'k',
    });
    expect(expectStatus(rejected, 201).data).toMatchObject({ status: 'errored', error: expect.any(String) });
    expectError(await api().post(path, { url: 'ftp://x.example.com/app', stream_key: 'k' }), 422, 'validation_failed', { param: 'url' });
    expectError(await api().post(path, { url: 'rtmp://x.example.com/app', stream_key: '' }), 422, 'validation_failed', { param: 'stream_key' });

    const removed = expectStatus(await api().delete(`${path}/${sixth.id}`), 200).data;
    expect(removed.id).toBe(sixth.id);
    expectError(await api().delete(`${path}/${sixth.id}`), 404, 'resource_not_found');
    expectError(await api().delete(`${path}/sct_01h455vb4pex5vsknk084sn02q`), 404, 'resource_not_found');
    const after = expectStatus(await api().get(`/v1/streams/live_streams/${stream.id}`), 200).data;
    expect(after.simulcast_targets).toHaveLength(5);

    const events = await streamEvents(t, tenant.id, stream.id);
    expect(events.map((e) => e.type)).toEqual([
      'streams.live_stream.created',
      'streams.live_stream.updated',
      'streams.live_stream.updated',
    ]);
    expect(events[1]!.data.previous_attributes!.simulcast_targets).toHaveLength(5);
    expect(events[1]!.data.object.simulcast_targets).toHaveLength(6);
    expect(events[2]!.data.previous_attributes!.simulcast_targets).toHaveLength(6);
    expect(JSON.stringify(events)).not.toContain('secret-six');
  });
});

describe('DELETE /v1/streams/live_streams/{id}', () => {
  it('returns the stream, emits deleted, and later reads, actions and playback answer 404', async () => {
    const stream = await createStream(t, tenant.key);
    await simulate(t, tenant.key, stream.id, { event: 'connected' });
    const deleted = expectStatus(await api().delete(`/v1/streams/live_streams/${stream.id}`), 200).data;
    expect(deleted.id).toBe(stream.id);
    expectError(await api().get(`/v1/streams/live_streams/${stream.id}`), 404, 'resource_not_found');
    expectError(await api().delete(`/v1/streams/live_streams/${stream.id}`), 404, 'resource_not_found');
    expectError(await api().post(`/v1/streams/live_streams/${stream.id}/disable`), 404, 'resource_not_found');
    expectError(await simulate(t, tenant.key, stream.id, { event: 'active' }), 404, 'resource_not_found');
    expectError(await t.http().get(`/v1/streams/playback/${stream.playback_ids[0].id}.m3u8`), 404, 'resource_not_found');
    const list = expectStatus(await api().get('/v1/streams/live_streams?limit=100'), 200).data;
    expect(list.map((s: any) => s.id)).not.toContain(stream.id);
    const events = await streamEvents(t, tenant.id, stream.id);
    expect(events.at(-1)!.type).toBe('streams.live_stream.deleted');
    expect(events.at(-1)!.data.previous_attributes).toEqual({ status: 'connecting' });
  });
});

describe('live mode', () => {
  it('refuses with 409 video_network_not_configured until the operator picks a network, then uses it', async () => {
    const { tenant, keys } = await t.tenant('Live Only');
    const live = client(t, keys.live.secret);
    expectError(await live.post('/v1/streams/live_streams', {}), 409, 'video_network_not_configured');
    expect(await t.ctx.db.selectFrom('live_streams').select('id').where('tenant_id', '=', tenant.id).execute()).toHaveLength(0);
    const updated = await setVideo(t, tenant.id, { live_network: 'simulated' });
    expect(updated.video).toEqual({ live_network: 'simulated', dedicated_environment: false });
    const stream = expectStatus(await live.post('/v1/streams/live_streams', {}), 201).data;
    expect(stream).toMatchObject({ livemode: true, provider: 'simulated' });
    await setVideo(t, tenant.id, { live_network: null });
    expectError(await live.post('/v1/streams/live_streams', {}), 409, 'video_network_not_configured');
    // Existing objects stay with the network that made them.
    expectStatus(await live.post(`/v1/streams/live_streams/${stream.id}/disable`), 200);
  });

  it('the operator sets the video settings when creating a tenant too', async () => {
    const res = await t.http().post('/v1/operator/tenants').set(t.operator).send({ name: 'Video From Start', video: { live_network: 'simulated', dedicated_environment: true } });
    const { tenant, keys } = expectStatus(res, 201).data;
    expect(tenant.video).toEqual({ live_network: 'simulated', dedicated_environment: true });
    expectStatus(await client(t, keys.live.secret).post('/v1/streams/live_streams', {}), 201);
    expectStatus(await client(t, keys.live.secret).post('/v1/streams/signing_keys'), 201);
  });

  it('the operator API validates the network name', async () => {
    const { tenant } = await t.tenant('Bad Network');
    const res = await t.http().patch(`/v1/operator/tenants/${tenant.id}`).set(t.operator).send({ video: { live_network: 'mux' } });
    expectError(res, 422, 'validation_failed');
  });
});

describe('a failing video network', () => {
  class BrokenNetwork extends SimulatedVideoNetwork {
    override async createLiveInput(_settings: LiveInputSettings): Promise<never> {
      throw new Error('connection reset by the network');
    }
    override async resetStreamKey(_ref: string): Promise<never> {
      throw new Error('connection reset by the network');
    }
  }

  it('answers 502 provider_unavailable and changes nothing', async () => {
    const stream = await createStream(t, tenant.key);
    const before = await t.ctx.db.selectFrom('live_streams').select('id').execute();
    videoNetworksPart.of(t.ctx).use(new BrokenNetwork(t.ctx.config.baseUrl));
    try {
      expectError(await api().post('/v1/streams/live_streams', {}), 502, 'provider_unavailable');
      expectError(await api().post(`/v1/streams/live_streams/${stream.id}/reset_stream_key`), 502, 'provider_unavailable');
    } finally {
      videoNetworksPart.of(t.ctx).use(new SimulatedVideoNetwork(t.ctx.config.baseUrl));
    }
    expect(await t.ctx.db.selectFrom('live_streams').select('id').execute()).toHaveLength(before.length);
    const after = expectStatus(await api().get(`/v1/streams/live_streams/${stream.id}`), 200).data;
    expect(after.ingest.stream_key).toBe(stream.ingest.stream_key);
    expect(after.sequence).toBe(1);
  });
});
