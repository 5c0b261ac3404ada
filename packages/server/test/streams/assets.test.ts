import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { client, createAsset, eventsOf, expectError, expectStatus, typesOf, VIDEO_URL, useMediaTenant } from './media-fixtures';

const t = useTestServer();
const tenant = useMediaTenant(t, 'Assets');
const { keys, api } = tenant;

describe('POST /v1/streams/assets', () => {
  it('creates a preparing asset with a playback id and emits streams.asset.created', async () => {
    const res = await api.post('/v1/streams/assets', {
      url: VIDEO_URL,
      playback_policy: 'public',
      generated_subtitles: 'en-US',
      metadata: { campaign: 'launch' },
      external_id: 'video-1',
    });
    const asset = expectStatus(res, 201).data;
    expect(asset).toMatchObject({
      object: 'asset',
      livemode: false,
      status: 'preparing',
      error: null,
      source: 'url',
      duration: null,
      audio_only: false,
      provider: 'simulated',
      generated_subtitles: 'en-US',
      live_stream: null,
      clip: null,
      upload: null,
      external_id: 'video-1',
      metadata: { campaign: 'launch' },
    });
    expect(asset.id).toMatch(/^ast_/);
    expect(asset.playback_ids).toEqual([{ id: expect.stringMatching(/^pb_/), policy: 'public' }]);
    const events = await eventsOf(t, tenant.id, asset.id);
    expect(typesOf(events)).toEqual(['streams.asset.created']);
    expect(events[0]!.data.object).toEqual(asset);
    expect(events[0]!.request?.id).toBe(res.headers['request-id']);
  });

  it('defaults to a signed playback id and empty metadata; null metadata and external_id are accepted', async () => {
    const asset = await createAsset(t, keys.test.secret, { metadata: null, external_id: null });
    expect(asset.playback_ids).toEqual([{ id: expect.any(String), policy: 'signed' }]);
    expect(asset.metadata).toEqual({});
    expect(asset.external_id).toBeNull();
  });

  it('takes a url of exactly 2048 characters and refuses 2049', async () => {
    const base = 'https://media.example.com/';
    const ok = `${base}${'a'.repeat(2048 - base.length)}`;
    expect(ok).toHaveLength(2048);
    expectStatus(await api.post('/v1/streams/assets', { url: ok }), 201);
    expectError(await api.post('/v1/streams/assets', { url: `${ok}b` }), 422, 'validation_failed', { param: 'url' });
  });

  it.each([
    ['missing', undefined],
    ['not a URL', 'video.mp4'],
    ['http', 'http://media.example.com/a.mp4'],
    ['ftp', 'ftp://media.example.com/a.mp4'],
    ['loopback', 'https://127.0.0.1/a.mp4'],
    ['loopback in hex', 'https://0x7f.1/a.mp4'],
    ['private 10/8', 'https://10.1.2.3/a.mp4'],
    ['private 192.168/16', 'https://192.168.0.10/a.mp4'],
    ['private 172.16/12', 'https://172.20.0.1/a.mp4'],
    ['link-local metadata address', 'https://169.254.169.254/latest'],
    ['IPv6 loopback', 'https://[::1]/a.mp4'],
    ['IPv6 unique local', 'https://[fd00::1]/a.mp4'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/a.mp4'],
    ['localhost', 'https://localhost/a.mp4'],
    ['single-label host', 'https://intranet/a.mp4'],
    ['.internal host', 'https://videos.corp.internal/a.mp4'],
    ['user info', 'https://user:pass@media.example.com/a.mp4'],
  ])('refuses a url that is not public HTTPS (%s)', async (_why, url) => {
    expectError(await api.post('/v1/streams/assets', url === undefined ? {} : { url }), 422, 'validation_failed', { param: 'url' });
  });

  it('takes a public IP literal', async () => {
    expectStatus(await api.post('/v1/streams/assets', { url: 'https://93.184.216.34/a.mp4' }), 201);
  });

  it.each(['en', 'pt-BR'])('takes generated_subtitles %s', async (code) => {
    expectStatus(await api.post('/v1/streams/assets', { url: VIDEO_URL, generated_subtitles: code }), 201);
  });

  it.each(['EN', 'eng', 'en-us', 'en_US', 'e', 'en-USA', ''])('refuses generated_subtitles %j', async (code) => {
    expectError(await api.post('/v1/streams/assets', { url: VIDEO_URL, generated_subtitles: code }), 422, 'validation_failed', { param: 'generated_subtitles' });
  });

  it('takes an external_id of 255 characters and refuses 256 or an empty one', async () => {
    expectStatus(await api.post('/v1/streams/assets', { url: VIDEO_URL, external_id: 'x'.repeat(255) }), 201);
    expectError(await api.post('/v1/streams/assets', { url: VIDEO_URL, external_id: 'x'.repeat(256) }), 422, 'validation_failed', { param: 'external_id' });
    expectError(await api.post('/v1/streams/assets', { url: VIDEO_URL, external_id: '' }), 422, 'validation_failed', { param: 'external_id' });
  });

  it('refuses metadata beyond the limits and an unknown playback_policy', async () => {
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    expectError(await api.post('/v1/streams/assets', { url: VIDEO_URL, metadata: many }), 422, 'validation_failed');
    expectError(await api.post('/v1/streams/assets', { url: VIDEO_URL, metadata: { ['k'.repeat(41)]: 'v' } }), 422, 'validation_failed');
    expectError(await api.post('/v1/streams/assets', { url: VIDEO_URL, playback_policy: 'private' }), 422, 'validation_failed', { param: 'playback_policy' });
  });

  it('refuses a second asset with the same external_id (409 external_id_taken), which a delete gives back', async () => {
    const first = await createAsset(t, keys.test.secret, { external_id: 'dup' });
    expectError(await api.post('/v1/streams/assets', { url: VIDEO_URL, external_id: 'dup' }), 409, 'external_id_taken', { param: 'external_id' });
    expectStatus(await api.delete(`/v1/streams/assets/${first.id}`), 200);
    expectStatus(await api.post('/v1/streams/assets', { url: VIDEO_URL, external_id: 'dup' }), 201);
  });

  it('refuses live mode while the operator has chosen no video network (409 video_network_not_configured)', async () => {
    expectError(await client(t, keys.live.secret).post('/v1/streams/assets', { url: VIDEO_URL }), 409, 'video_network_not_configured');
  });
});

describe('asset state machine (test helper)', () => {
  it('preparing → ready with a duration, emitting streams.asset.ready', async () => {
    const asset = await createAsset(t, keys.test.secret);
    const ready = expectStatus(await api.post(`/v1/test_helpers/assets/${asset.id}/simulate`, { event: 'ready', duration: 42.5 }), 200).data;
    expect(ready).toMatchObject({ id: asset.id, status: 'ready', duration: 42.5, error: null });
    const events = await eventsOf(t, tenant.id, asset.id);
    expect(typesOf(events)).toEqual(['streams.asset.created', 'streams.asset.ready']);
    expect(events[1]!.data.previous_attributes).toEqual({ status: 'preparing', duration: null });
    expect(events[1]!.data.object.status).toBe('ready');
  });

  it('preparing → ready without a duration uses the simulated default', async () => {
    const asset = await createAsset(t, keys.test.secret);
    const ready = expectStatus(await api.post(`/v1/test_helpers/assets/${asset.id}/simulate`, { event: 'ready' }), 200).data;
    expect(ready.duration).toBe(60);
  });

  it('preparing → errored with an error, emitting streams.asset.errored', async () => {
    const asset = await createAsset(t, keys.test.secret);
    const errored = expectStatus(
      await api.post(`/v1/test_helpers/assets/${asset.id}/simulate`, { event: 'errored', error: 'Unsupported codec' }),
      200,
    ).data;
    expect(errored).toMatchObject({ status: 'errored', error: 'Unsupported codec', duration: null });
    const events = await eventsOf(t, tenant.id, asset.id);
    expect(typesOf(events)).toEqual(['streams.asset.created', 'streams.asset.errored']);
    expect(events[1]!.data.object.error).toBe('Unsupported codec');
    expect(events[1]!.data.previous_attributes).toEqual({ status: 'preparing', error: null });
  });

  it('errored without a message gets one', async () => {
    const asset = await createAsset(t, keys.test.secret);
    const errored = expectStatus(await api.post(`/v1/test_helpers/assets/${asset.id}/simulate`, { event: 'errored' }), 200).data;
    expect(errored.error).toMatch(/could not process/);
  });

  it.each([
    ['ready', 'ready'],
    ['ready', 'errored'],
    ['errored', 'ready'],
    ['errored', 'errored'],
  ])('a %s asset cannot move to %s (409 invalid_state_transition)', async (first, second) => {
    const asset = await createAsset(t, keys.test.secret);
    expectStatus(await api.post(`/v1/test_helpers/assets/${asset.id}/simulate`, { event: first }), 200);
    const res = await api.post(`/v1/test_helpers/assets/${asset.id}/simulate`, { event: second });
    expectError(res, 409, 'invalid_state_transition');
    expect(res.body.error.details).toEqual({ status: first, event: second });
    expect(typesOf(await eventsOf(t, tenant.id, asset.id))).toHaveLength(2);
  });

  it('refuses a duration with errored, an error with ready, and bad values', async () => {
    const asset = await createAsset(t, keys.test.secret);
    const path = `/v1/test_helpers/assets/${asset.id}/simulate`;
    expectError(await api.post(path, { event: 'errored', duration: 10 }), 422, 'validation_failed', { param: 'duration' });
    expectError(await api.post(path, { event: 'ready', error: 'x' }), 422, 'validation_failed', { param: 'error' });
    expectError(await api.post(path, { event: 'ready', duration: 0 }), 422, 'validation_failed', { param: 'duration' });
    expectError(await api.post(path, { event: 'ready', duration: 604_801 }), 422, 'validation_failed', { param: 'duration' });
    expectError(await api.post(path, { event: 'finished' }), 422, 'validation_failed', { param: 'event' });
  });

  it('takes test-mode secret keys only: live keys get 403 live_mode_unavailable, restricted keys 403 insufficient_permissions', async () => {
    const asset = await createAsset(t, keys.test.secret);
    expectError(
      await client(t, keys.live.secret).post(`/v1/test_helpers/assets/${asset.id}/simulate`, { event: 'ready' }),
      403,
      'live_mode_unavailable',
    );
    const restricted = expectStatus(
      await api.post('/v1/keys', { type: 'restricted', scopes: ['streams:write'] }),
      201,
    ).data.secret as string;
    expectError(await client(t, restricted).post(`/v1/test_helpers/assets/${asset.id}/simulate`, { event: 'ready' }), 403, 'insufficient_permissions');
    expectError(await api.post('/v1/test_helpers/assets/ast_unknown/simulate', { event: 'ready' }), 404, 'resource_not_found');
  });
});
