import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { deleteOwnAccountRecordings } from '../../src/modules/streams/assets/delete-own-account-recordings.job';
import { mediaDeps } from '../../src/modules/streams/assets/media-deps';
import { deleteOwnAccountRecordingsJobType } from '../../src/modules/streams/network/external/account-networks';
import { createPlaybackLink } from '../../src/modules/streams/playback-ids/playback-ids.service';
import { streamsDeps } from '../../src/modules/streams/streams-deps';
import { useTestServer } from '../harness';
import { FakeVideoAccount, useFakeAccountApi, useOwnAccount } from './account-fixtures';
import { setVideo } from './live-fixtures';
import { busyTenant, client, expectError, expectStatus, type Keys } from './media-fixtures';

const t = useTestServer();
const fake = new FakeVideoAccount();
let keys: Keys;
let tenantId: string;
let config: Record<string, any>;
beforeAll(async () => {
  await fake.start();
  useFakeAccountApi(t, fake);
  const made = await busyTenant(t, 'Adapter Co');
  keys = made.keys;
  tenantId = made.tenant.id;
  config = await useOwnAccount(t, keys.live.secret, fake);
});
afterAll(() => fake.stop());

const live = () => client(t, keys.live.secret);
const uidOf = (ref: string) => ref.split(':')[1]!;
const streamRow = (id: string) => t.ctx.db.selectFrom('live_streams').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const last = (method: string, pathEnd: string) => fake.requestsTo(method, pathEnd).at(-1);

describe('live inputs on the own account', () => {
  it('creates the stream on the account: its ingest, recording after the reconnect window, signed playback', async () => {
    const stream = expectStatus(await live().post('/v1/streams/live_streams', { reconnect_window: 90 }), 201).data;
    expect(stream.provider).toBe('cloudflare');
    const sent = last('POST', '/stream/live_inputs')!;
    expect(sent.body).toEqual({ recording: { mode: 'automatic', timeoutSeconds: 90, requireSignedURLs: true }, deleteRecordingAfterDays: 30, enabled: true });
    const input = [...fake.liveInputs.values()].at(-1);
    expect(stream.ingest).toEqual({
      rtmp_url: 'rtmps://live.fake-account.invalid:443/live',
      rtmp_backup_url: null,
      srt_url: `srt://live.fake-account.invalid:778?streamid=${input.srt.streamId}`,
      whip_url: input.webRTC.url,
      stream_key: input.rtmps.streamKey,
      srt_passphrase: input.srt.passphrase,
    });
    expect((await streamRow(stream.id)).provider_ref).toBe(`${config.id}:${input.uid}`);
  });

  it('refuses what the account does not offer, and a full account', async () => {
    expectError(await live().post('/v1/streams/live_streams', { audio_only: true, latency_mode: 'standard' }), 422, 'provider_rejected', { param: 'audio_only' });
    fake.storageExhausted = true;
    try {
      expectError(await live().post('/v1/streams/live_streams', {}), 409, 'provider_storage_exhausted');
    } finally {
      fake.storageExhausted = false;
    }
  });

  it('does not repeat a create that failed: 502 after one try', async () => {
    const before = fake.requestsTo('POST', '/stream/live_inputs').length;
    fake.failures.push({ status: 502, errors: [] });
    expectError(await live().post('/v1/streams/live_streams', {}), 502, 'provider_unavailable');
    expect(fake.requestsTo('POST', '/stream/live_inputs').length).toBe(before + 1);
  });

  it('updates, disables, enables, resets the key of and deletes the live input', async () => {
    const stream = expectStatus(await live().post('/v1/streams/live_streams', {}), 201).data;
    const uid = uidOf((await streamRow(stream.id)).provider_ref);
    expectStatus(await live().patch(`/v1/streams/live_streams/${stream.id}`, { reconnect_window: 300 }), 200);
    expect(last('PUT', `/live_inputs/${uid}`)!.body).toEqual({ recording: { mode: 'automatic', timeoutSeconds: 300, requireSignedURLs: true } });
    expectStatus(await live().post(`/v1/streams/live_streams/${stream.id}/disable`), 200);
    expect(fake.liveInputs.get(uid).enabled).toBe(false);
    expectStatus(await live().post(`/v1/streams/live_streams/${stream.id}/enable`), 200);
    expect(fake.liveInputs.get(uid).enabled).toBe(true);
    const reset = expectStatus(await live().post(`/v1/streams/live_streams/${stream.id}/reset_stream_key`), 200).data;
    expect(fake.liveInputs.get(uid).enabled).toBe(false);
    const newUid = uidOf((await streamRow(stream.id)).provider_ref);
    expect(newUid).not.toBe(uid);
    expect(reset.ingest.stream_key).toBe(fake.liveInputs.get(newUid).rtmps.streamKey);
    expect(reset.ingest.srt_url).toContain(fake.liveInputs.get(newUid).srt.streamId);
    expectStatus(await live().post(`/v1/streams/live_streams/${stream.id}/enable`), 200);
    expect(fake.liveInputs.get(newUid).enabled).toBe(true);

    // A safe request is tried again after a fault.
    fake.failures.push({ status: 503, errors: [{ code: 1, message: 'busy' }] });
    expectStatus(await live().post(`/v1/streams/live_streams/${stream.id}/disable`), 200);
    expect(fake.liveInputs.get(uid).enabled).toBe(false);

    expectStatus(await live().delete(`/v1/streams/live_streams/${stream.id}`), 200);
    expect(fake.liveInputs.has(uid)).toBe(false);
    expect(fake.liveInputs.has(newUid)).toBe(false);
  });

  it('deletes a deleted stream\'s recordings on the account one reconnect window plus a minute later', async () => {
    const stream = expectStatus(await live().post('/v1/streams/live_streams', { reconnect_window: 120 }), 201).data;
    const uid = uidOf((await streamRow(stream.id)).provider_ref);
    const kept = fake.addRecording(uid);
    fake.finishVideo(kept.uid, 30);
    const before = Date.now();
    expectStatus(await live().delete(`/v1/streams/live_streams/${stream.id}`), 200);
    expect(fake.liveInputs.has(uid)).toBe(false);
    expect(fake.videos.has(kept.uid)).toBe(true);
    const { rows } = await sql<{ data: any; start_after: Date }>`
      delete from pgboss.job where name = ${deleteOwnAccountRecordingsJobType.name} returning data, start_after`.execute(t.ctx.db);
    expect(rows).toHaveLength(1);
    const delay = (new Date(rows[0]!.start_after).getTime() - before) / 1000;
    expect(delay).toBeGreaterThan(175);
    expect(delay).toBeLessThan(190);
    expect(rows[0]!.data).toEqual({ tenant_id: tenantId, livemode: true, provider: 'cloudflare', video_refs: [`${config.id}:${kept.uid}`] });
    await deleteOwnAccountRecordings(mediaDeps(t.ctx), rows[0]!.data);
    expect(fake.videos.has(kept.uid)).toBe(false);
    // Again: nothing left to delete, nothing fails.
    await deleteOwnAccountRecordings(mediaDeps(t.ctx), rows[0]!.data);
  });

  it('adds simulcast outputs, keeps a refused one as errored, and removes them', async () => {
    const stream = expectStatus(await live().post('/v1/streams/live_streams', {}), 201).data;
    const uid = uidOf((await streamRow(stream.id)).provider_ref);
    const target = expectStatus(
      await live().post(`/v1/streams/live_streams/${stream.id}/simulcast_targets`, { url: 'rtmps://a.example.com/live', stream_key: 'yt-key' }),
      201,
    ).data;
    expect(target.status).toBe('active');
    expect(last('POST', `/live_inputs/${uid}/outputs`)!.body).toEqual({ url: 'rtmps://a.example.com/live', streamKey: 'yt-key', enabled: true });
    fake.failures.push({ status: 400, errors: [{ code: 10005, message: 'Output refused' }] });
    const refused = expectStatus(
      await live().post(`/v1/streams/live_streams/${stream.id}/simulcast_targets`, { url: 'rtmps://b.example.com/live', stream_key: 'k' }),
      201,
    ).data;
    expect(refused.status).toBe('errored');
    expectStatus(await live().delete(`/v1/streams/live_streams/${stream.id}/simulcast_targets/${target.id}`), 200);
    expect(fake.liveInputs.get(uid).outputs.size).toBe(0);
  });
});

describe('assets, uploads and signing keys on the own account', () => {
  it('copies an asset from a URL, deletes it, and maps failures', async () => {
    const asset = expectStatus(await live().post('/v1/streams/assets', { url: 'https://media.example.com/show.mp4' }), 201).data;
    expect(asset).toMatchObject({ provider: 'cloudflare', status: 'preparing' });
    expect(last('POST', '/stream/copy')!.body).toEqual({ url: 'https://media.example.com/show.mp4', requireSignedURLs: true });
    const row = await t.ctx.db.selectFrom('assets').selectAll().where('id', '=', asset.id).executeTakeFirstOrThrow();
    const uid = uidOf(row.provider_asset_id!);
    expect(fake.videos.has(uid)).toBe(true);
    expectStatus(await live().delete(`/v1/streams/assets/${asset.id}`), 200);
    expect(fake.videos.has(uid)).toBe(false);

    fake.failures.push({ status: 400, errors: [{ code: 10005, message: 'The URL cannot be fetched' }] });
    expectError(await live().post('/v1/streams/assets', { url: 'https://media.example.com/missing.mp4' }), 422, 'provider_rejected');
    fake.failures.push({ status: 500, errors: [] });
    expectError(await live().post('/v1/streams/assets', { url: 'https://media.example.com/x.mp4' }), 502, 'provider_unavailable');
  });

  it('hands out the account\'s direct upload URL, limited to the upload\'s origin', async () => {
    const upload = expectStatus(await live().post('/v1/streams/uploads', { cors_origin: 'https://app.example.com' }), 201).data;
    expect(upload.url).toMatch(/^https:\/\/upload\.fake-account\.invalid\/[0-9a-f]{32}$/);
    expect(last('POST', '/stream/direct_upload')!.body).toMatchObject({ requireSignedURLs: true, allowedOrigins: ['app.example.com'], meta: { upload: upload.id } });
  });

  it('makes caller signing keys on the account and deletes them when revoked', async () => {
    await setVideo(t, tenantId, { dedicated_environment: true });
    const key = expectStatus(await live().post('/v1/streams/signing_keys'), 201).data;
    expect(key.private_key).toContain('BEGIN PRIVATE KEY');
    expect(fake.keys.size).toBe(2);
    expectStatus(await live().delete(`/v1/streams/signing_keys/${key.key_id ?? key.id}`), 200);
    expect(fake.keys.size).toBe(1);
  });
});

describe('playback of media on the own account', () => {
  it('sends the viewer on with a token signed here with the account\'s key, no call to the account', async () => {
    const stream = expectStatus(await live().post('/v1/streams/live_streams', {}), 201).data;
    const uid = uidOf((await streamRow(stream.id)).provider_ref);
    const scope = { tenantId, livemode: true };
    const expiresAt = new Date(Date.now() + 600_000);
    const link = await createPlaybackLink(streamsDeps(t.ctx), scope, stream.playback_ids[0].id, expiresAt);
    const calls = fake.received.length;
    const res = await t.http().get(new URL(link.url).pathname + new URL(link.url).search);
    expect(res.status).toBe(302);
    expect(fake.received.length).toBe(calls);
    const location = res.headers.location as string;
    const m = location.match(/^https:\/\/customer-abc123code\.cloudflarestream\.com\/([^/]+)\/manifest\/video\.m3u8$/);
    expect(m).not.toBeNull();
    const token = m![1]!;
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'RS256', kid: fake.signingKey.id });
    const { payload } = await jwtVerify(token, fake.signingKey.publicKey);
    expect(payload).toMatchObject({ sub: uid, kid: fake.signingKey.id, exp: Math.floor(expiresAt.getTime() / 1000) });

    // Without the service's token nothing is signed.
    const bare = await t.http().get(new URL(link.url).pathname);
    expect(bare.status).toBe(401);
  });
});

describe('networks per object and environment', () => {
  it('keeps test mode on the simulated network, and existing objects on the network that made them', async () => {
    const test = expectStatus(await client(t, keys.test.secret).post('/v1/streams/live_streams', {}), 201).data;
    expect(test.provider).toBe('simulated');

    const onAccount = expectStatus(await live().post('/v1/streams/live_streams', {}), 201).data;
    const uid = uidOf((await streamRow(onAccount.id)).provider_ref);
    await setVideo(t, tenantId, { live_network: 'simulated' });
    expectStatus(await live().patch('/v1/streams/settings', { live_network: 'standard' }), 200);
    const standard = expectStatus(await live().post('/v1/streams/live_streams', {}), 201).data;
    expect(standard.provider).toBe('simulated');
    expectStatus(await live().post(`/v1/streams/live_streams/${onAccount.id}/disable`), 200);
    expect(fake.liveInputs.get(uid).enabled).toBe(false);
    expectStatus(await live().patch('/v1/streams/settings', { live_network: config.id }), 200);
  });
});
