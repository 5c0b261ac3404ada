import { beforeAll, describe, expect, it } from 'vitest';
import { setVideo } from './live-fixtures';
import { busyTenant, client, expectError, expectStatus } from './media-fixtures';
import { useMediaTestServer } from './media-network-fixtures';

const m = useMediaTestServer();
let live: ReturnType<typeof client>;
let test: ReturnType<typeof client>;
let tenantId: string;
beforeAll(async () => {
  const { keys, tenant } = await busyTenant(m.t, 'Media Settings Co');
  live = client(m.t, keys.live.secret);
  test = client(m.t, keys.test.secret);
  tenantId = tenant.id;
  // The operator chose the simulated network, so `standard` is told apart from `media`.
  await setVideo(m.t, tenantId, { live_network: 'simulated' });
});

const createStream = async () => expectStatus(await live.post('/v1/streams/live_streams', {}), 201).data as Record<string, any>;

describe('/v1/streams/settings with the media network running', () => {
  it('chooses `media` in live mode: stored without a configuration, returned, and used for new live streams', async () => {
    expect((await createStream()).provider).toBe('simulated');
    const chosen = expectStatus(await live.patch('/v1/streams/settings', { live_network: 'media' }), 200).data;
    expect(chosen).toMatchObject({ object: 'stream_settings', livemode: true, live_network: 'media' });
    expect(chosen.updated_at).toEqual(expect.any(String));
    expect(expectStatus(await live.get('/v1/streams/settings'), 200).data).toEqual(chosen);
    const row = await m.t.ctx.db.selectFrom('stream_settings').selectAll().where('tenant_id', '=', tenantId).where('livemode', '=', true).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ live_network: 'media', provider_config_id: null });

    const stream = await createStream();
    expect(stream.provider).toBe('media');
    expect(stream.ingest.rtmp_url).toBe(m.media.rtmpUrl);
  });

  it('refuses `media` in test mode, whose settings stay `standard`', async () => {
    expectError(await test.patch('/v1/streams/settings', { live_network: 'media' }), 422, 'validation_failed', { param: 'live_network' });
    expect(expectStatus(await test.get('/v1/streams/settings'), 200).data).toMatchObject({ livemode: false, live_network: 'standard' });
    expect(expectStatus(await test.post('/v1/streams/live_streams', {}), 201).data.provider).toBe('simulated');
  });

  it('switches back to `standard`: the operator\'s choice, then the media network by default; existing streams stay where they are', async () => {
    expectStatus(await live.patch('/v1/streams/settings', { live_network: 'media' }), 200);
    const onMedia = await createStream();
    expect(onMedia.provider).toBe('media');

    expect(expectStatus(await live.patch('/v1/streams/settings', { live_network: 'standard' }), 200).data.live_network).toBe('standard');
    expect((await createStream()).provider).toBe('simulated');
    await setVideo(m.t, tenantId, { live_network: null });
    expect((await createStream()).provider).toBe('media');

    await setVideo(m.t, tenantId, { live_network: 'simulated' });
    const kept = expectStatus(await live.get(`/v1/streams/live_streams/${onMedia.id}`), 200).data;
    expect(kept.provider).toBe('media');
    expect(kept.ingest.rtmp_url).toBe(m.media.rtmpUrl);
    expectStatus(await live.delete(`/v1/streams/live_streams/${onMedia.id}`), 200);
  });
});
