import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedVideoNetwork } from '../../src/modules/streams/network/simulated-network';
import { VideoNetworkRejection, type AssetFromUrlInput, type CreatedNetworkAsset } from '../../src/modules/streams/network/video-network';
import { useTestServer, type TestServer } from '../harness';
import {
  client,
  createAsset,
  eventsOf,
  expectError,
  expectStatus,
  readyAsset,
  typesOf,
  VIDEO_URL,
  type Keys,
  mediaTenant,
} from './media-fixtures';
import { videoNetworksPart } from '../../src/modules/streams';

const t = useTestServer();
let keys: Keys;
let tenantId: string;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  ({ keys, tenantId, api } = await mediaTenant(t, 'Assets'));
});

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
    const events = await eventsOf(t, tenantId, asset.id);
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
    const events = await eventsOf(t, tenantId, asset.id);
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
    const events = await eventsOf(t, tenantId, asset.id);
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
    expect(typesOf(await eventsOf(t, tenantId, asset.id))).toHaveLength(2);
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

describe('reading, changing and deleting assets', () => {
  it('gets an asset by id and by external id; unknown ids and prefixes are 404', async () => {
    const asset = await createAsset(t, keys.test.secret, { external_id: 'read-me' });
    expect(expectStatus(await api.get(`/v1/streams/assets/${asset.id}`), 200).data).toEqual(asset);
    expect(expectStatus(await api.get('/v1/streams/assets/external/read-me'), 200).data).toEqual(asset);
    expectError(await api.get('/v1/streams/assets/external/nobody'), 404, 'resource_not_found');
    expectError(await api.get('/v1/streams/assets/ast_01h455vb4pex5vsknk084sn02q'), 404, 'resource_not_found');
    expectError(await api.get('/v1/streams/assets/ls_01h455vb4pex5vsknk084sn02q'), 404, 'resource_not_found');
  });

  it('lists newest first with filters status, source, external_id and metadata[key], paged by cursor', async () => {
    const { keys: own } = await t.tenant('List');
    const list = client(t, own.test.secret);
    const a = await createAsset(t, own.test.secret, { metadata: { team: 'red', tier: 'gold' }, external_id: 'a' });
    const b = await readyAsset(t, own.test.secret, 30, { metadata: { team: 'blue' } });
    const c = await createAsset(t, own.test.secret, { metadata: { team: 'red' } });
    const ids = (res: any) => res.body.data.map((x: any) => x.id);

    expect(ids(await list.get('/v1/streams/assets'))).toEqual([c.id, b.id, a.id]);
    expect(ids(await list.get('/v1/streams/assets?status=ready'))).toEqual([b.id]);
    expect(ids(await list.get('/v1/streams/assets?status=preparing'))).toEqual([c.id, a.id]);
    expect(ids(await list.get('/v1/streams/assets?source=url'))).toEqual([c.id, b.id, a.id]);
    expect(ids(await list.get('/v1/streams/assets?source=recording'))).toEqual([]);
    expect(ids(await list.get('/v1/streams/assets?external_id=a'))).toEqual([a.id]);
    expect(ids(await list.get('/v1/streams/assets?metadata[team]=red'))).toEqual([c.id, a.id]);
    expect(ids(await list.get('/v1/streams/assets?metadata[team]=red&metadata[tier]=gold'))).toEqual([a.id]);
    expect(ids(await list.get(`/v1/streams/assets?metadata=${encodeURIComponent('{"team":"blue"}')}`))).toEqual([b.id]);
    expectError(await list.get('/v1/streams/assets?metadata=notjson'), 422, 'validation_failed', { param: 'metadata' });
    expectError(await list.get('/v1/streams/assets?status=done'), 422, 'validation_failed', { param: 'status' });
    expectError(await list.get('/v1/streams/assets?source=camera'), 422, 'validation_failed', { param: 'source' });

    const page1 = expectStatus(await list.get('/v1/streams/assets?limit=2'), 200);
    expect(page1.data.map((x: any) => x.id)).toEqual([c.id, b.id]);
    expect(page1.meta.pagination).toMatchObject({ limit: 2, has_more: true, prev_cursor: null });
    const page2 = expectStatus(await list.get(`/v1/streams/assets?limit=2&cursor=${page1.meta.pagination.next_cursor}`), 200);
    expect(page2.data.map((x: any) => x.id)).toEqual([a.id]);
    expect(page2.meta.pagination).toMatchObject({ has_more: false, next_cursor: null });
    expectError(await list.get('/v1/streams/assets?limit=101'), 422, 'validation_failed', { param: 'limit' });
  });

  it('patches metadata and external_id, emitting streams.asset.updated with the old values', async () => {
    const asset = await createAsset(t, keys.test.secret, { metadata: { a: '1' }, external_id: 'before' });
    const updated = expectStatus(await api.patch(`/v1/streams/assets/${asset.id}`, { metadata: { b: '2' }, external_id: 'after' }), 200).data;
    expect(updated).toMatchObject({ metadata: { b: '2' }, external_id: 'after' });
    const events = await eventsOf(t, tenantId, asset.id);
    expect(typesOf(events)).toEqual(['streams.asset.created', 'streams.asset.updated']);
    expect(events[1]!.data.previous_attributes).toEqual({ metadata: { a: '1' }, external_id: 'before' });

    const cleared = expectStatus(await api.patch(`/v1/streams/assets/${asset.id}`, { metadata: null, external_id: null }), 200).data;
    expect(cleared).toMatchObject({ metadata: {}, external_id: null });
    // Nothing changes: no event.
    expectStatus(await api.patch(`/v1/streams/assets/${asset.id}`, { metadata: {} }), 200);
    expect(typesOf(await eventsOf(t, tenantId, asset.id))).toEqual(['streams.asset.created', 'streams.asset.updated', 'streams.asset.updated']);
  });

  it('refuses a patch to a taken external_id or beyond the limits', async () => {
    await createAsset(t, keys.test.secret, { external_id: 'taken' });
    const asset = await createAsset(t, keys.test.secret);
    expectError(await api.patch(`/v1/streams/assets/${asset.id}`, { external_id: 'taken' }), 409, 'external_id_taken', { param: 'external_id' });
    expectError(await api.patch(`/v1/streams/assets/${asset.id}`, { external_id: 'x'.repeat(256) }), 422, 'validation_failed', { param: 'external_id' });
    expectError(await api.patch(`/v1/streams/assets/${asset.id}`, { metadata: { k: 'v'.repeat(501) } }), 422, 'validation_failed');
  });

  it('deletes an asset: the answer is the asset, later reads are 404, streams.asset.deleted is emitted', async () => {
    const asset = await readyAsset(t, keys.test.secret);
    const deleted = expectStatus(await api.delete(`/v1/streams/assets/${asset.id}`), 200).data;
    expect(deleted.id).toBe(asset.id);
    expectError(await api.get(`/v1/streams/assets/${asset.id}`), 404, 'resource_not_found');
    expectError(await api.delete(`/v1/streams/assets/${asset.id}`), 404, 'resource_not_found');
    expectError(await api.patch(`/v1/streams/assets/${asset.id}`, { metadata: {} }), 404, 'resource_not_found');
    const listed = expectStatus(await api.get('/v1/streams/assets?limit=100'), 200).data.map((a: any) => a.id);
    expect(listed).not.toContain(asset.id);
    expect(typesOf(await eventsOf(t, tenantId, asset.id)).at(-1)).toBe('streams.asset.deleted');
  });
});

/** The simulated network, with what it was asked recorded and its answers chosen by the test. */
class ScriptedNetwork extends SimulatedVideoNetwork {
  deleted: string[] = [];
  failCreate: Error | null = null;
  failDelete: Error | null = null;
  override async createAssetFromUrl(input: AssetFromUrlInput): Promise<CreatedNetworkAsset> {
    if (this.failCreate) throw this.failCreate;
    return super.createAssetFromUrl(input);
  }
  override async deleteAsset(providerRef?: string): Promise<void> {
    if (this.failDelete) throw this.failDelete;
    this.deleted.push(providerRef!);
  }
}

describe('the video network behind assets', () => {
  let network: ScriptedNetwork;
  beforeAll(() => {
    network = new ScriptedNetwork(t.ctx.config.baseUrl);
    videoNetworksPart.of(t.ctx).use(network);
  });
  afterAll(() => videoNetworksPart.of(t.ctx).use(new SimulatedVideoNetwork(t.ctx.config.baseUrl)));

  const assetCount = async () => (await t.ctx.db.selectFrom('assets').select('id').where('tenant_id', '=', tenantId).execute()).length;

  it('deletes the media on the network (releasing its stored minutes) before hiding the asset', async () => {
    const asset = await createAsset(t, keys.test.secret);
    const row = await t.ctx.db.selectFrom('assets').select('provider_asset_id').where('id', '=', asset.id).executeTakeFirstOrThrow();
    expectStatus(await api.delete(`/v1/streams/assets/${asset.id}`), 200);
    expect(network.deleted).toContain(row.provider_asset_id);
  });

  it('keeps the asset when the network fails to delete it (502 provider_unavailable)', async () => {
    const asset = await createAsset(t, keys.test.secret);
    network.failDelete = new Error('connection reset');
    try {
      expectError(await api.delete(`/v1/streams/assets/${asset.id}`), 502, 'provider_unavailable');
    } finally {
      network.failDelete = null;
    }
    expectStatus(await api.get(`/v1/streams/assets/${asset.id}`), 200);
  });

  it('creates nothing when the network refuses (422 provider_rejected) or fails (502) the URL', async () => {
    const before = await assetCount();
    network.failCreate = new VideoNetworkRejection('The file is not a video.', 'url');
    expectError(await api.post('/v1/streams/assets', { url: VIDEO_URL }), 422, 'provider_rejected', { param: 'url' });
    network.failCreate = new Error('timeout');
    expectError(await api.post('/v1/streams/assets', { url: VIDEO_URL }), 502, 'provider_unavailable');
    network.failCreate = null;
    expect(await assetCount()).toBe(before);
  });
});
