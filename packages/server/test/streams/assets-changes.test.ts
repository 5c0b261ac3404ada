import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedVideoNetwork } from '../../src/modules/streams/network/simulated-network';
import { VideoNetworkRejection, type AssetFromUrlInput, type CreatedNetworkAsset } from '../../src/modules/streams/network/video-network';
import { useTestServer } from '../harness';
import {
  client,
  createAsset,
  eventsOf,
  expectError,
  expectStatus,
  readyAsset,
  typesOf,
  VIDEO_URL,
  useMediaTenant,
} from './media-fixtures';
import { videoNetworksPart } from '../../src/modules/streams';

const t = useTestServer();
const tenant = useMediaTenant(t, 'Assets');
const { keys, api } = tenant;

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
    const events = await eventsOf(t, tenant.id, asset.id);
    expect(typesOf(events)).toEqual(['streams.asset.created', 'streams.asset.updated']);
    expect(events[1]!.data.previous_attributes).toEqual({ metadata: { a: '1' }, external_id: 'before' });

    const cleared = expectStatus(await api.patch(`/v1/streams/assets/${asset.id}`, { metadata: null, external_id: null }), 200).data;
    expect(cleared).toMatchObject({ metadata: {}, external_id: null });
    // Nothing changes: no event.
    expectStatus(await api.patch(`/v1/streams/assets/${asset.id}`, { metadata: {} }), 200);
    expect(typesOf(await eventsOf(t, tenant.id, asset.id))).toEqual(['streams.asset.created', 'streams.asset.updated', 'streams.asset.updated']);
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
    expect(typesOf(await eventsOf(t, tenant.id, asset.id)).at(-1)).toBe('streams.asset.deleted');
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

  const assetCount = async () => (await t.ctx.db.selectFrom('assets').select('id').where('tenant_id', '=', tenant.id).execute()).length;

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
