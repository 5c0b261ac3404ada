import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import {
  client,
  createAsset,
  eventsOf,
  expectError,
  expectStatus,
  readyAsset,
  runClipTry,
  simulateStream,
  takeClipTries,
} from './media-fixtures';
import { useMomentsTenant } from './moments-fixtures';

const t = useTestServer();
const { tenant, keys, api, clock, at, liveStream, mark } = useMomentsTenant(t);

describe('cancelling a moment', () => {
  it('sets clip_status null, skips the queued clip, and is idempotent', async () => {
    const { stream } = await liveStream();
    clock.advance(10);
    const moment = expectStatus(await mark(stream.id, { type: 'goal', clip_before_s: 5, clip_after_s: 5 }), 201).data;
    clock.advance(1);
    const cancelled = expectStatus(await api.post(`/v1/streams/moments/${moment.id}/cancel`), 200).data;
    expect(cancelled).toMatchObject({ clip_status: null, cancelled_at: at(11).toISOString() });
    const [job] = await takeClipTries(t);
    clock.set(job!.startAfter);
    await runClipTry(t, job!.data);
    const after = expectStatus(await api.get(`/v1/streams/moments/${moment.id}`), 200).data;
    expect(after).toMatchObject({ clip_status: null, clip_asset: null });
    expect(await eventsOf(t, tenant.id, moment.id)).toEqual([]);
    clock.advance(60);
    expect(expectStatus(await api.post(`/v1/streams/moments/${moment.id}/cancel`), 200).data).toEqual(after);
  });

  it('answers 404 for other tenants and environments', async () => {
    const { stream } = await liveStream();
    const moment = expectStatus(await mark(stream.id, { type: 'goal' }), 201).data;
    const { keys: other } = await t.tenant('Other');
    expectError(await client(t, other.test.secret).post(`/v1/streams/moments/${moment.id}/cancel`), 404, 'resource_not_found');
    expectError(await client(t, other.test.secret).get(`/v1/streams/moments/${moment.id}`), 404, 'resource_not_found');
    expectError(await client(t, keys.live.secret).post(`/v1/streams/moments/${moment.id}/cancel`), 404, 'resource_not_found');
    expectError(await api.post('/v1/streams/moments/mom_01h455vb4pex5vsknk084sn02q/cancel'), 404, 'resource_not_found');
    expectError(await api.get('/v1/streams/moments/ls_01h455vb4pex5vsknk084sn02q'), 404, 'resource_not_found');
  });
});

describe('GET /v1/streams/assets/{id}/moments', () => {
  it('lists the recording\'s moments newest first with offset_s, leaves out cancelled ones, and pages by cursor', async () => {
    const { stream, recording } = await liveStream();
    const other = await liveStream();
    const made: string[] = [];
    for (const s of [5, 15, 25, 35]) {
      clock.set(at(s));
      made.push(expectStatus(await mark(stream.id, { type: 'beat', label: `t${s}` }), 201).data.id);
    }
    expectStatus(await api.post(`/v1/streams/moments/${made[2]}/cancel`), 200);
    await mark(other.stream.id, { type: 'elsewhere' });
    const path = `/v1/streams/assets/${recording.id}/moments`;

    const all = expectStatus(await api.get(path), 200);
    expect(all.data.map((m: any) => m.id)).toEqual([made[3], made[1], made[0]]);
    expect(all.data.map((m: any) => m.offset_s)).toEqual([35, 15, 5]);
    expect(all.data.every((m: any) => m.recording === recording.id)).toBe(true);
    expect(all.meta.pagination).toMatchObject({ has_more: false, next_cursor: null, prev_cursor: null, limit: 20 });

    const page1 = expectStatus(await api.get(`${path}?limit=2`), 200);
    expect(page1.data.map((m: any) => m.id)).toEqual([made[3], made[1]]);
    expect(page1.meta.pagination.has_more).toBe(true);
    const page2 = expectStatus(await api.get(`${path}?limit=2&cursor=${page1.meta.pagination.next_cursor}`), 200);
    expect(page2.data.map((m: any) => m.id)).toEqual([made[0]]);
    expect(page2.meta.pagination.has_more).toBe(false);
    const back = expectStatus(await api.get(`${path}?limit=2&cursor=${page2.meta.pagination.prev_cursor}`), 200);
    expect(back.data.map((m: any) => m.id)).toEqual([made[3], made[1]]);
    expectError(await api.get(`${path}?cursor=garbage`), 400, 'invalid_cursor');
  });

  it('leaves out moments after the recording ended', async () => {
    const { stream, recording } = await liveStream();
    clock.set(at(10));
    const inside = expectStatus(await mark(stream.id, { type: 'in' }), 201).data;
    clock.set(at(20));
    await simulateStream(t, keys.test.secret, stream.id, 'disconnected');
    await api.post(`/v1/streams/live_streams/${stream.id}/complete`);
    clock.set(at(30));
    const after = expectStatus(await mark(stream.id, { type: 'out' }), 201).data;
    expect(after).toMatchObject({ recording: null, offset_s: null });
    const listed = expectStatus(await api.get(`/v1/streams/assets/${recording.id}/moments`), 200).data;
    expect(listed.map((m: any) => m.id)).toEqual([inside.id]);
  });

  it('answers {data: []} for an asset that is not a recording, and 404 for unknown or foreign assets', async () => {
    const asset = await createAsset(t, keys.test.secret);
    expect(expectStatus(await api.get(`/v1/streams/assets/${asset.id}/moments`), 200)).toEqual({ data: [] });
    const ready = await readyAsset(t, keys.test.secret);
    expect(expectStatus(await api.get(`/v1/streams/assets/${ready.id}/moments`), 200)).toEqual({ data: [] });
    expectError(await api.get('/v1/streams/assets/ast_01h455vb4pex5vsknk084sn02q/moments'), 404, 'resource_not_found');
    const { recording } = await liveStream();
    const { keys: other } = await t.tenant('Other');
    expectError(await client(t, other.test.secret).get(`/v1/streams/assets/${recording.id}/moments`), 404, 'resource_not_found');
    expectError(await client(t, keys.live.secret).get(`/v1/streams/assets/${recording.id}/moments`), 404, 'resource_not_found');
  });
});
