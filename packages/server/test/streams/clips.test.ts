import { describe, expect, it } from 'vitest';
import { SimulatedVideoNetwork } from '../../src/modules/streams/network/simulated-network';
import { useTestServer } from '../harness';
import {
  client,
  createAsset,
  eventsOf,
  expectError,
  expectStatus,
  FailingClipNetwork,
  readyAsset,
  typesOf,
  useMediaTenant,
} from './media-fixtures';
import { videoNetworksPart } from '../../src/modules/streams';

const t = useTestServer();
const tenant = useMediaTenant(t, 'Clips');
const { keys, api } = tenant;

const clip = (assetId: string, body: object) => api.post(`/v1/streams/assets/${assetId}/clips`, body);
const counts = async () => ({
  assets: (await t.ctx.db.selectFrom('assets').select('id').where('tenant_id', '=', tenant.id).execute()).length,
  clips: (await t.ctx.db.selectFrom('clips').select('id').where('tenant_id', '=', tenant.id).execute()).length,
  events: (await eventsOf(t, tenant.id)).length,
});

describe('POST /v1/streams/assets/{id}/clips', () => {
  it('cuts a ready asset into a clip asset, ready at once on the simulated network', async () => {
    const source = await readyAsset(t, keys.test.secret, 120);
    const res = await clip(source.id, { start_time: 10, end_time: 25.5, playback_policy: 'public', generated_subtitles: 'fr' });
    const asset = expectStatus(res, 201).data;
    expect(asset).toMatchObject({ object: 'asset', source: 'clip', status: 'ready', duration: 15.5, generated_subtitles: 'fr', provider: 'simulated' });
    expect(asset.clip).toMatch(/^clp_/);
    expect(asset.playback_ids).toEqual([{ id: expect.any(String), policy: 'public' }]);

    const got = expectStatus(await api.get(`/v1/streams/clips/${asset.clip}`), 200).data;
    expect(got).toEqual({
      id: asset.clip,
      object: 'clip',
      livemode: false,
      asset: asset.id,
      source_asset: source.id,
      start_time: 10,
      end_time: 25.5,
      status: 'ready',
      moment: null,
      created_at: expect.any(String),
    });

    const events = await eventsOf(t, tenant.id);
    const mine = events.filter((e) => e.subject === asset.id || e.subject === asset.clip);
    expect(typesOf(mine)).toEqual(['streams.asset.created', 'streams.clip.created', 'streams.asset.ready']);
    expect(mine[1]!.data.object).toMatchObject({ id: asset.clip, source_asset: source.id, status: 'preparing' });
  });

  it('takes the whole asset: start 0 and end at its duration', async () => {
    const source = await readyAsset(t, keys.test.secret, 30);
    expect(expectStatus(await clip(source.id, { start_time: 0, end_time: 30 }), 201).data.duration).toBe(30);
  });

  it('refuses aspect 9:16 with 422 aspect_not_supported and creates nothing, even before checking readiness', async () => {
    const source = await readyAsset(t, keys.test.secret, 60);
    const preparing = await createAsset(t, keys.test.secret);
    const before = await counts();
    expectError(await clip(source.id, { start_time: 0, end_time: 10, aspect: '9:16' }), 422, 'aspect_not_supported', { param: 'aspect' });
    expectError(await clip(preparing.id, { start_time: 0, end_time: 10, aspect: '9:16' }), 422, 'aspect_not_supported', { param: 'aspect' });
    expect(await counts()).toEqual(before);
    expectError(await clip(source.id, { start_time: 0, end_time: 10, aspect: '16:9' }), 422, 'validation_failed', { param: 'aspect' });
  });

  it('refuses a preparing or errored asset with 409 asset_not_ready', async () => {
    const preparing = await createAsset(t, keys.test.secret);
    expectError(await clip(preparing.id, { start_time: 0, end_time: 1 }), 409, 'asset_not_ready');
    const errored = await createAsset(t, keys.test.secret);
    expectStatus(await api.post(`/v1/test_helpers/assets/${errored.id}/simulate`, { event: 'errored' }), 200);
    expectError(await clip(errored.id, { start_time: 0, end_time: 1 }), 409, 'asset_not_ready');
  });

  it.each([
    ['negative start', { start_time: -1, end_time: 5 }, 'start_time'],
    ['end before start', { start_time: 10, end_time: 5 }, 'end_time'],
    ['end equal to start', { start_time: 10, end_time: 10 }, 'end_time'],
    ['end after the asset', { start_time: 10, end_time: 60.5 }, 'end_time'],
    ['missing start', { end_time: 5 }, 'start_time'],
    ['missing end', { start_time: 5 }, 'end_time'],
    ['text times', { start_time: '1', end_time: '5' }, 'start_time'],
    ['bad subtitles', { start_time: 1, end_time: 5, generated_subtitles: 'english' }, 'generated_subtitles'],
    ['bad policy', { start_time: 1, end_time: 5, playback_policy: 'private' }, 'playback_policy'],
  ])('refuses %s (422)', async (_why, body, param) => {
    const source = await readyAsset(t, keys.test.secret, 60);
    const before = await counts();
    expectError(await clip(source.id, body), 422, 'validation_failed', { param: param });
    expect(await counts()).toEqual(before);
  });

  it('answers 422 provider_rejected and creates nothing when the network refuses the cut', async () => {
    const source = await readyAsset(t, keys.test.secret, 60);
    const before = await counts();
    videoNetworksPart.of(t.ctx).use(new FailingClipNetwork(t.ctx.config.baseUrl));
    try {
      expectError(await clip(source.id, { start_time: 0, end_time: 5 }), 422, 'provider_rejected');
    } finally {
      videoNetworksPart.of(t.ctx).use(new SimulatedVideoNetwork(t.ctx.config.baseUrl));
    }
    expect(await counts()).toEqual(before);
  });

  it('answers 404 for unknown, deleted and other tenants\' assets and clips', async () => {
    const source = await readyAsset(t, keys.test.secret, 60);
    const made = expectStatus(await clip(source.id, { start_time: 0, end_time: 5 }), 201).data;
    const { keys: other } = await t.tenant('Other');
    const stranger = client(t, other.test.secret);
    expectError(await stranger.post(`/v1/streams/assets/${source.id}/clips`, { start_time: 0, end_time: 5 }), 404, 'resource_not_found');
    expectError(await stranger.get(`/v1/streams/clips/${made.clip}`), 404, 'resource_not_found');
    expectError(await client(t, keys.live.secret).get(`/v1/streams/clips/${made.clip}`), 404, 'resource_not_found');
    expectError(await client(t, keys.live.secret).post(`/v1/streams/assets/${source.id}/clips`, { start_time: 0, end_time: 5 }), 404, 'resource_not_found');
    expectError(await api.get('/v1/streams/clips/clp_01h455vb4pex5vsknk084sn02q'), 404, 'resource_not_found');
    expectError(await api.get(`/v1/streams/clips/${made.id}`), 404, 'resource_not_found');
    expectStatus(await api.delete(`/v1/streams/assets/${made.id}`), 200);
    expectError(await api.get(`/v1/streams/clips/${made.clip}`), 404, 'resource_not_found');
    expectStatus(await api.delete(`/v1/streams/assets/${source.id}`), 200);
    expectError(await clip(source.id, { start_time: 0, end_time: 5 }), 404, 'resource_not_found');
  });
});
