import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { streamsMediaJobs } from '../../src/modules/streams/assets/media-jobs';
import { useTestServer, type TestServer } from '../harness';
import {
  client,
  createAsset,
  createLiveStream,
  eventsOf,
  expectStatus,
  simulateStream,
  typesOf,
  type Keys,
  mediaTenant,
} from './media-fixtures';
import { finishSimulatedAssetJobType } from '../../src/modules/streams/assets/asset-processing';
import { jobsRan } from '../kit/jobs';

// The real queue: pg-boss workers run the delayed jobs, as in production.
const t = useTestServer({ SVC_SIMULATED_ASSET_DELAY_MS: '300', SVC_CLIP_SETTLE_SECONDS: '0' });
let keys: Keys;
let tenantId: string;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  for (const job of streamsMediaJobs(t.ctx)) t.ctx.jobs.register({ ...job, work: { pollingIntervalSeconds: 0.5 } });
  await t.ctx.jobs.start();
  ({ keys, tenantId, api } = await mediaTenant(t, 'Jobs'));
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('simulated processing by itself (test mode)', () => {
  it('makes a created asset ready after the configured delay, outside any request', async () => {
    const asset = await createAsset(t, keys.test.secret);
    const ready = await until(
      async () => expectStatus(await api.get(`/v1/streams/assets/${asset.id}`), 200).data,
      (a) => a.status === 'ready',
    );
    expect(ready).toMatchObject({ status: 'ready', duration: 60 });
    const events = await eventsOf(t, tenantId, asset.id);
    expect(typesOf(events)).toEqual(['streams.asset.created', 'streams.asset.ready']);
    expect(events[1]!.request).toBeNull();
  });

  it('does nothing when the test helper finished the asset first', async () => {
    const asset = await createAsset(t, keys.test.secret);
    expectStatus(await api.post(`/v1/test_helpers/assets/${asset.id}/simulate`, { event: 'errored', error: 'bad file' }), 200);
    // The finishing job still runs; it must find the asset finished and change nothing.
    await jobsRan(t, finishSimulatedAssetJobType, { asset_id: asset.id });
    expect(expectStatus(await api.get(`/v1/streams/assets/${asset.id}`), 200).data).toMatchObject({ status: 'errored', error: 'bad file' });
    expect(typesOf(await eventsOf(t, tenantId, asset.id))).toEqual(['streams.asset.created', 'streams.asset.errored']);
  });

  it('makes an uploaded file\'s asset ready too', async () => {
    const upload = expectStatus(await api.post('/v1/streams/uploads', {}), 201).data;
    const u = new URL(upload.url);
    expectStatus(await t.http().put(`${u.pathname}${u.search}`).set('Content-Type', 'video/mp4').send(Buffer.alloc(64)), 200);
    const assetId = expectStatus(await api.get(`/v1/streams/uploads/${upload.id}`), 200).data.asset;
    const ready = await until(async () => expectStatus(await api.get(`/v1/streams/assets/${assetId}`), 200).data, (a) => a.status === 'ready');
    expect(ready.status).toBe('ready');
  });
});

describe('the moment clip pipeline on the queue', () => {
  afterEach(() => {
    t.ctx.clock = undefined;
  });

  it('cuts the clip after the window closes and reports it ready', async () => {
    const stream = await createLiveStream(t, keys.test.secret);
    await simulateStream(t, keys.test.secret, stream.id, 'connected', 'active');
    // The moment comes a little over a second into the broadcast, so its clip starts after the broadcast did.
    t.ctx.clock = () => new Date(Date.now() + 1_100);
    const moment = expectStatus(
      await api.post(`/v1/streams/live_streams/${stream.id}/moments`, { type: 'goal', customer: 'fan-1', clip_before_s: 1, clip_after_s: 1 }),
      201,
    ).data;
    const done = await until(
      async () => expectStatus(await api.get(`/v1/streams/moments/${moment.id}`), 200).data,
      (m) => m.clip_status !== 'pending',
    );
    expect(done).toMatchObject({ clip_status: 'ready', clip_asset: expect.stringMatching(/^ast_/) });
    const events = await eventsOf(t, tenantId, moment.id);
    expect(typesOf(events)).toEqual(['streams.moment.clip_ready']);
    expect(events[0]!.data.object).toMatchObject({ customer: 'fan-1', clip_asset: done.clip_asset });
  });
});
