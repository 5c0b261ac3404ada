import { beforeEach, describe, expect, it } from 'vitest';
import { SimulatedVideoNetwork } from '../../src/modules/streams/network/simulated-network';
import { useTestServer } from '../harness';
import {
  createLiveStream,
  eventsOf,
  expectStatus,
  FailingClipNetwork,
  runClipTry,
  simulateStream,
  takeClipTries,
  useManualClock,
  useMediaTenant,
} from './media-fixtures';
import { videoNetworksPart } from '../../src/modules/streams';

const t = useTestServer();
const tenant = useMediaTenant(t, 'Retries');
const { keys, api } = tenant;
const clock = useManualClock(t, new Date('2026-04-01T18:00:00.000Z'));
beforeEach(async () => {
  videoNetworksPart.of(t.ctx).use(new SimulatedVideoNetwork(t.ctx.config.baseUrl));
  await takeClipTries(t);
});

const moment = async (id: string) => expectStatus(await api.get(`/v1/streams/moments/${id}`), 200).data;

describe('the moment clip retry schedule', () => {
  it('retries a failing cut after 30 s, 1, 2, 4, 8, 10 and 10 minutes, and fails after the 8th try', async () => {
    const network = new FailingClipNetwork(t.ctx.config.baseUrl);
    videoNetworksPart.of(t.ctx).use(network);
    const stream = await createLiveStream(t, keys.test.secret);
    await simulateStream(t, keys.test.secret, stream.id, 'connected', 'active');
    clock.advance(60);
    const created = expectStatus(
      await api.post(`/v1/streams/live_streams/${stream.id}/moments`, { type: 'goal', customer: 'viewer-9', clip_before_s: 20, clip_after_s: 10 }),
      201,
    ).data;

    const waits: number[] = [];
    let [job] = await takeClipTries(t);
    for (let attempt = 1; attempt <= 8; attempt++) {
      expect(job!.data.attempt).toBe(attempt);
      clock.set(job!.startAfter);
      const ranAt = clock.now();
      await runClipTry(t, job!.data);
      expect(network.tries).toBe(attempt);
      const next = await takeClipTries(t);
      if (attempt < 8) {
        expect(next).toHaveLength(1);
        expect((await moment(created.id)).clip_status).toBe('pending');
        waits.push((next[0]!.startAfter.getTime() - ranAt.getTime()) / 1000);
        [job] = next;
      } else {
        expect(next).toEqual([]);
      }
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 600, 600]);

    const failed = await moment(created.id);
    expect(failed).toMatchObject({ clip_status: 'failed', clip_error: 'The simulated network is down for clips.', clip_asset: null });
    const events = await eventsOf(t, tenant.id, created.id);
    expect(events.map((e) => e.type)).toEqual(['streams.moment.clip_failed']);
    expect(events[0]!.data.object).toMatchObject({ id: created.id, customer: 'viewer-9', clip_status: 'failed', clip_error: failed.clip_error });
    expect(events[0]!.data.previous_attributes).toEqual({ clip_status: 'pending', clip_error: null });

    // A late duplicate of any try changes nothing.
    await runClipTry(t, { ...job!.data, attempt: 3 });
    await runClipTry(t, job!.data);
    expect(network.tries).toBe(8);
    expect((await eventsOf(t, tenant.id, created.id)).length).toBe(1);
  });

  it('retries while no recording covers the window, and cuts once the stream goes live inside it', async () => {
    const stream = await createLiveStream(t, keys.test.secret);
    const created = expectStatus(
      await api.post(`/v1/streams/live_streams/${stream.id}/moments`, { type: 'countdown', clip_before_s: 10, clip_after_s: 60 }),
      201,
    ).data;
    expect(created).toMatchObject({ clip_status: 'pending', recording: null, offset_s: null });

    let [job] = await takeClipTries(t);
    clock.set(job!.startAfter);
    await runClipTry(t, job!.data);
    expect(await moment(created.id)).toMatchObject({ clip_status: 'pending', clip_error: null });
    [job] = await takeClipTries(t);
    expect(job!.data.attempt).toBe(2);
    expect(job!.startAfter.getTime() - clock.now().getTime()).toBe(30_000);

    // The broadcast starts 35 s after the moment (the window reaches 60 s past it) and ends 40 s later.
    clock.set(new Date(Date.parse(created.occurred_at) + 35_000));
    await simulateStream(t, keys.test.secret, stream.id, 'connected', 'active');
    clock.advance(40);
    await simulateStream(t, keys.test.secret, stream.id, 'disconnected', 'idle');
    clock.set(job!.startAfter < clock.now() ? clock.now() : job!.startAfter);
    await runClipTry(t, job!.data);
    const done = await moment(created.id);
    expect(done.clip_status).toBe('ready');
    const clipAsset = expectStatus(await api.get(`/v1/streams/assets/${done.clip_asset}`), 200).data;
    expect(expectStatus(await api.get(`/v1/streams/clips/${clipAsset.clip}`), 200).data).toMatchObject({ start_time: 0, end_time: 25 });
  });

  it('fails with the reason when no recording ever covers the window', async () => {
    const stream = await createLiveStream(t, keys.test.secret);
    const created = expectStatus(await api.post(`/v1/streams/live_streams/${stream.id}/moments`, { type: 'x', clip_after_s: 5 }), 201).data;
    for (let attempt = 1; attempt <= 8; attempt++) {
      const [job] = await takeClipTries(t);
      clock.set(job!.startAfter);
      await runClipTry(t, job!.data);
    }
    expect(await takeClipTries(t)).toEqual([]);
    expect(await moment(created.id)).toMatchObject({
      clip_status: 'failed',
      clip_error: "No recording of the live stream covers the moment's clip window.",
    });
  });

  it('stops retrying once the moment is cancelled', async () => {
    videoNetworksPart.of(t.ctx).use(new FailingClipNetwork(t.ctx.config.baseUrl));
    const stream = await createLiveStream(t, keys.test.secret);
    await simulateStream(t, keys.test.secret, stream.id, 'connected', 'active');
    const created = expectStatus(await api.post(`/v1/streams/live_streams/${stream.id}/moments`, { type: 'x', clip_after_s: 5 }), 201).data;
    let [job] = await takeClipTries(t);
    clock.set(job!.startAfter);
    await runClipTry(t, job!.data);
    [job] = await takeClipTries(t);
    expectStatus(await api.post(`/v1/streams/moments/${created.id}/cancel`), 200);
    clock.set(job!.startAfter);
    await runClipTry(t, job!.data);
    expect(await takeClipTries(t)).toEqual([]);
    expect(await moment(created.id)).toMatchObject({ clip_status: null, clip_error: null });
    expect(await eventsOf(t, tenant.id, created.id)).toEqual([]);
  });
});
