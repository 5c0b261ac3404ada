import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { client, eventsOf, expectError, expectStatus, runClipTry, simulateStream, takeClipTries } from './media-fixtures';
import { SETTLE, useMomentsTenant } from './moments-fixtures';

const t = useTestServer();
const { tenant, keys, api, clock, at, liveStream, mark } = useMomentsTenant(t);

describe('the recording of a broadcast', () => {
  it('is an asset with source recording and the clock time of its first frame, growing while live', async () => {
    const { stream, recording } = await liveStream();
    expect(recording).toMatchObject({
      source: 'recording',
      status: 'preparing',
      live_stream: stream.id,
      recording_started_at: at(0).toISOString(),
      recording_ended_at: null,
      provider: 'simulated',
    });
    expect(recording.playback_ids).toHaveLength(1);
    expect((await eventsOf(t, tenant.id, recording.id)).map((e) => e.type)).toEqual(['streams.asset.created']);
    // A reconnect inside the window continues the same recording.
    clock.advance(20);
    await simulateStream(t, keys.test.secret, stream.id, 'disconnected', 'connected', 'active');
    const again = expectStatus(await api.get('/v1/streams/assets?source=recording&limit=100'), 200).data.filter((a: any) => a.live_stream === stream.id);
    expect(again.map((a: any) => a.id)).toEqual([recording.id]);
  });

  it('ends at the last frame when the broadcast ends, and is ready at once on the simulated network', async () => {
    const { stream, recording } = await liveStream();
    clock.advance(90);
    await simulateStream(t, keys.test.secret, stream.id, 'disconnected');
    clock.advance(30);
    await simulateStream(t, keys.test.secret, stream.id, 'idle');
    const ended = expectStatus(await api.get(`/v1/streams/assets/${recording.id}`), 200).data;
    expect(ended).toMatchObject({ status: 'ready', duration: 90, recording_ended_at: at(90).toISOString() });
    expect((await eventsOf(t, tenant.id, recording.id)).map((e) => e.type)).toEqual(['streams.asset.created', 'streams.asset.ready']);
    // The next broadcast records anew.
    await simulateStream(t, keys.test.secret, stream.id, 'connected', 'active');
    const all = expectStatus(await api.get('/v1/streams/assets?source=recording&limit=100'), 200).data.filter((a: any) => a.live_stream === stream.id);
    expect(all).toHaveLength(2);
  });

  it('cannot be finished by the asset test helper while the broadcast is open', async () => {
    const { recording } = await liveStream();
    expectError(await api.post(`/v1/test_helpers/assets/${recording.id}/simulate`, { event: 'ready' }), 409, 'invalid_state_transition');
  });
});

describe('POST /v1/streams/live_streams/{id}/moments', () => {
  it('marks a moment without a clip window: clip_status null, no clip try queued', async () => {
    const { stream, recording } = await liveStream();
    clock.advance(12.5);
    const moment = expectStatus(await mark(stream.id, { type: 'goal', label: 'First goal', customer: 'viewer-7', metadata: { minute: '12' } }), 201).data;
    expect(moment).toMatchObject({
      object: 'moment',
      livemode: false,
      live_stream: stream.id,
      type: 'goal',
      label: 'First goal',
      customer: 'viewer-7',
      clip_before_s: null,
      clip_after_s: null,
      clip_status: null,
      clip_error: null,
      clip_asset: null,
      recording: recording.id,
      offset_s: 12.5,
      occurred_at: at(12.5).toISOString(),
      cancelled_at: null,
      metadata: { minute: '12' },
    });
    expect(moment.id).toMatch(/^mom_/);
    expect(await takeClipTries(t)).toEqual([]);
    expect(expectStatus(await api.get(`/v1/streams/moments/${moment.id}`), 200).data).toEqual(moment);
  });

  it('with a window: pending, and the first try is queued once the window closed plus the settle wait', async () => {
    const { stream, recording } = await liveStream();
    clock.advance(30);
    const moment = expectStatus(await mark(stream.id, { type: 'goal', customer: 'viewer-1', clip_before_s: 10, clip_after_s: 5 }), 201).data;
    expect(moment).toMatchObject({ clip_status: 'pending', clip_before_s: 10, clip_after_s: 5, offset_s: 30 });
    const [first, ...rest] = await takeClipTries(t);
    expect(rest).toEqual([]);
    expect(first!.data).toEqual({ tenant_id: tenant.id, livemode: false, moment_id: moment.id, attempt: 1 });
    expect(first!.startAfter.toISOString()).toBe(at(30 + 5 + SETTLE).toISOString());

    clock.set(first!.startAfter);
    await runClipTry(t, first!.data);
    const done = expectStatus(await api.get(`/v1/streams/moments/${moment.id}`), 200).data;
    expect(done).toMatchObject({ clip_status: 'ready', clip_error: null, clip_asset: expect.stringMatching(/^ast_/), recording: recording.id });

    const clipAsset = expectStatus(await api.get(`/v1/streams/assets/${done.clip_asset}`), 200).data;
    expect(clipAsset).toMatchObject({ source: 'clip', status: 'ready', duration: 15 });
    const clip = expectStatus(await api.get(`/v1/streams/clips/${clipAsset.clip}`), 200).data;
    expect(clip).toMatchObject({ source_asset: recording.id, start_time: 20, end_time: 35, moment: moment.id, status: 'ready' });

    const events = await eventsOf(t, tenant.id, moment.id);
    expect(events.map((e) => e.type)).toEqual(['streams.moment.clip_ready']);
    expect(events[0]!.data.object).toMatchObject({ id: moment.id, customer: 'viewer-1', clip_asset: clipAsset.id, clip_status: 'ready' });
    expect(events[0]!.data.previous_attributes).toEqual({ clip_status: 'pending', clip_asset: null });
    // A duplicate of the same try does nothing.
    await runClipTry(t, first!.data);
    expect((await eventsOf(t, tenant.id, moment.id)).length).toBe(1);
  });

  it('clamps the cut to the first frame', async () => {
    const { stream } = await liveStream();
    clock.advance(3);
    const moment = expectStatus(await mark(stream.id, { type: 'kickoff', clip_before_s: 10, clip_after_s: 4 }), 201).data;
    const [job] = await takeClipTries(t);
    clock.set(job!.startAfter);
    await runClipTry(t, job!.data);
    const done = expectStatus(await api.get(`/v1/streams/moments/${moment.id}`), 200).data;
    const clipAsset = expectStatus(await api.get(`/v1/streams/assets/${done.clip_asset}`), 200).data;
    expect(expectStatus(await api.get(`/v1/streams/clips/${clipAsset.clip}`), 200).data).toMatchObject({ start_time: 0, end_time: 7 });
  });

  it('clamps the cut to the last frame when the encoder left inside the window', async () => {
    const { stream } = await liveStream();
    clock.advance(30);
    const moment = expectStatus(await mark(stream.id, { type: 'save', clip_before_s: 10, clip_after_s: 60 }), 201).data;
    clock.set(at(40));
    await simulateStream(t, keys.test.secret, stream.id, 'disconnected');
    clock.set(at(80));
    await simulateStream(t, keys.test.secret, stream.id, 'idle');
    const [job] = await takeClipTries(t);
    clock.set(job!.startAfter);
    await runClipTry(t, job!.data);
    const done = expectStatus(await api.get(`/v1/streams/moments/${moment.id}`), 200).data;
    expect(done.clip_status).toBe('ready');
    const clipAsset = expectStatus(await api.get(`/v1/streams/assets/${done.clip_asset}`), 200).data;
    expect(clipAsset.duration).toBe(20);
    expect(expectStatus(await api.get(`/v1/streams/clips/${clipAsset.clip}`), 200).data).toMatchObject({ start_time: 20, end_time: 40 });
  });

  it('replays a repeated Idempotency-Key instead of marking twice', async () => {
    const { stream } = await liveStream();
    const first = await mark(stream.id, { type: 'goal', clip_after_s: 5 }, { 'Idempotency-Key': 'moment-1' });
    const again = await mark(stream.id, { type: 'goal', clip_after_s: 5 }, { 'Idempotency-Key': 'moment-1' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await takeClipTries(t)).toHaveLength(1);
  });

  it.each([
    ['no type', { clip_after_s: 5 }, 'type'],
    ['empty type', { type: '' }, 'type'],
    ['type over 64', { type: 'x'.repeat(65) }, 'type'],
    ['label over 200', { type: 'goal', label: 'x'.repeat(201) }, 'label'],
    ['customer over 255', { type: 'goal', customer: 'x'.repeat(256) }, 'customer'],
    ['negative before', { type: 'goal', clip_before_s: -1 }, 'clip_before_s'],
    ['before over 600', { type: 'goal', clip_before_s: 601 }, 'clip_before_s'],
    ['after over 600', { type: 'goal', clip_after_s: 600.5 }, 'clip_after_s'],
    ['empty window', { type: 'goal', clip_before_s: 0, clip_after_s: 0 }, 'clip_after_s'],
    ['text window', { type: 'goal', clip_after_s: '5' }, 'clip_after_s'],
  ])('refuses %s (422)', async (_why, body, param) => {
    const { stream } = await liveStream();
    expectError(await mark(stream.id, body), 422, 'validation_failed', { param: param });
  });

  it('takes the limits themselves', async () => {
    const { stream } = await liveStream();
    const body = { type: 'x'.repeat(64), label: 'x'.repeat(200), customer: 'x'.repeat(255), clip_before_s: 600, clip_after_s: 0 };
    expect(expectStatus(await mark(stream.id, body), 201).data.clip_status).toBe('pending');
  });

  it('answers 404 for unknown, deleted and other tenants\' streams', async () => {
    const { stream } = await liveStream();
    expectError(await mark('ls_01h455vb4pex5vsknk084sn02q', { type: 'goal' }), 404, 'resource_not_found');
    expectError(await mark('ast_01h455vb4pex5vsknk084sn02q', { type: 'goal' }), 404, 'resource_not_found');
    const { keys: other } = await t.tenant('Other');
    expectError(await client(t, other.test.secret).post(`/v1/streams/live_streams/${stream.id}/moments`, { type: 'goal' }), 404, 'resource_not_found');
    expectError(await client(t, keys.live.secret).post(`/v1/streams/live_streams/${stream.id}/moments`, { type: 'goal' }), 404, 'resource_not_found');
    expectStatus(await api.delete(`/v1/streams/live_streams/${stream.id}`), 200);
    expectError(await mark(stream.id, { type: 'goal' }), 404, 'resource_not_found');
  });
});
