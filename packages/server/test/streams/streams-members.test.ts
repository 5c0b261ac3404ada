import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { signIn, staffMember } from '../creators/creators-fixtures';
import { expectError, expectStatus, manualClock, readyAsset, simulateStream } from './media-fixtures';

const t = useTestServer();

/** A tenant with a stream that broadcast for a minute (its recording is ready), a clip of that recording, and an asset of its own. */
async function streamWithRecording() {
  const tenant = await t.tenant();
  const key = tenant.keys.test.secret;
  const api = (path: string) => t.http().get(path).set({ authorization: `Bearer ${key}` });
  const clock = manualClock(t);
  const stream = expectStatus(await t.http().post('/v1/streams/live_streams').set({ authorization: `Bearer ${key}` }).send({}), 201).data;
  await simulateStream(t, key, stream.id, 'connected', 'active');
  clock.advance(60);
  await simulateStream(t, key, stream.id, 'disconnected');
  clock.advance(120);
  await simulateStream(t, key, stream.id, 'idle');
  t.ctx.clock = undefined;
  const [recording] = expectStatus(await api('/v1/streams/assets?source=recording'), 200).data;
  const clip = expectStatus(
    await t.http().post(`/v1/streams/assets/${recording.id}/clips`).set({ authorization: `Bearer ${key}` }).send({ start_time: 5, end_time: 20 }),
    201,
  ).data;
  const other = await readyAsset(t, key, 30);
  return { tenant, stream, recording, clip, other };
}

describe('live streams for the console', () => {
  it('lets a staff member list streams, read one with its key, and open a preview link', async () => {
    const { tenant, stream } = await streamWithRecording();
    const owner = await staffMember(t, tenant, 'owner');
    const list = expectStatus(await t.http().get('/v1/streams/live_streams').set(owner.auth), 200).data;
    expect(list.map((s: { id: string }) => s.id)).toEqual([stream.id]);
    const one = expectStatus(await t.http().get(`/v1/streams/live_streams/${stream.id}`).set(owner.auth), 200).data;
    expect(one.ingest.stream_key).toBe(stream.ingest.stream_key);

    const [playback] = stream.playback_ids;
    expect(playback.policy).toBe('signed');
    const link = expectStatus(await t.http().post(`/v1/streams/playback_ids/${playback.id}/preview_links`).set(owner.auth), 201).data;
    expect(link).toMatchObject({ object: 'playback_link', playback_id: playback.id });
    expect(link.url).toContain(`/v1/streams/playback/${playback.id}.m3u8?token=`);
    expect(Date.parse(link.expires_at) - Date.now()).toBeGreaterThan(5 * 60_000);
    // The link plays: the master playlist answers with the token it carries.
    const url = new URL(link.url);
    const master = await t.http().get(`${url.pathname}${url.search}`);
    expect(master.status).toBe(200);
    expect(master.text).toContain('#EXTM3U');

    // A viewer reads too; a buyer's token does not.
    const viewer = await staffMember(t, tenant, 'viewer');
    expectStatus(await t.http().get('/v1/streams/live_streams').set(viewer.auth), 200);
    // Writes still take keys only.
    expect((await t.http().post('/v1/streams/live_streams').set(viewer.auth).send({})).status).toBeGreaterThanOrEqual(400);
    const buyer = await signIn(t, tenant);
    expectError(await t.http().get('/v1/streams/live_streams').set(buyer.auth), 403, 'missing_permission');
    expectError(await t.http().post(`/v1/streams/playback_ids/${playback.id}/preview_links`).set(buyer.auth), 403, 'missing_permission');
  });

  it('answers a public playback id with its plain link, and 404 for another tenant', async () => {
    const { tenant, stream } = await streamWithRecording();
    const key = { authorization: `Bearer ${tenant.keys.test.secret}` };
    const pub = expectStatus(await t.http().post('/v1/streams/playback_ids').set(key).send({ resource: stream.id, policy: 'public' }), 201).data;
    const link = expectStatus(await t.http().post(`/v1/streams/playback_ids/${pub.id}/preview_links`).set(key), 201).data;
    expect(link.expires_at).toBeNull();
    expect(link.url).not.toContain('token=');
    const other = await t.tenant();
    const otherKey = { authorization: `Bearer ${other.keys.test.secret}` };
    expectError(await t.http().post(`/v1/streams/playback_ids/${pub.id}/preview_links`).set(otherKey), 404, 'resource_not_found');
    // A disabled stream does not play.
    expectStatus(await t.http().post(`/v1/streams/live_streams/${stream.id}/disable`).set(key), 200);
    expectError(await t.http().post(`/v1/streams/playback_ids/${pub.id}/preview_links`).set(key), 409, 'stream_disabled');
  });

  it('lists a stream\'s recordings and the clips cut from them with live_stream', async () => {
    const { tenant, stream, recording, clip, other } = await streamWithRecording();
    const owner = await staffMember(t, tenant, 'owner');
    const assets = expectStatus(await t.http().get('/v1/streams/assets').query({ live_stream: stream.id }).set(owner.auth), 200).data;
    expect(assets.map((a: { id: string }) => a.id).sort()).toEqual([recording.id, clip.id].sort());
    expect(assets.find((a: { id: string }) => a.id === clip.id)).toMatchObject({ source: 'clip', clip: expect.stringMatching(/^clp_/) });
    const all = expectStatus(await t.http().get('/v1/streams/assets').set(owner.auth), 200).data;
    expect(all.map((a: { id: string }) => a.id)).toContain(other.id);
    expectStatus(await t.http().get(`/v1/streams/clips/${clip.clip}`).set(owner.auth), 200);
    const none = expectStatus(await t.http().get('/v1/streams/assets').query({ live_stream: 'ls_nope' }).set(owner.auth), 200).data;
    expect(none).toEqual([]);
  });
});
