import { Writable } from 'node:stream';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { createLogger } from '../../src/boot/logger';
import { sql } from 'kysely';
import { deleteOwnAccountRecordings } from '../../src/modules/streams/assets/delete-own-account-recordings.job';
import { mediaDeps } from '../../src/modules/streams/assets/media-deps';
import { deleteOwnAccountRecordingsJobType } from '../../src/modules/streams/network/external/account-networks';
import { expireReconnectWindow } from '../../src/modules/streams/live-streams/live-stream-transitions';
import { streamsDeps } from '../../src/modules/streams/streams-deps';
import { useTestServer } from '../harness';
import { configBody, FakeVideoAccount, NOTIFICATION_SECRET, useFakeAccountApi, useOwnAccount, WEBHOOK_SECRET } from './account-fixtures';
import { webhookSignature } from './fake-video-account';
import { busyTenant, client, eventsOf, expectError, expectStatus, manualClock, runClipTry, takeClipTries, typesOf, type Keys } from './media-fixtures';

// A whole show sends more notifications in a second than the public per-IP limit admits from one address.
const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
const fake = new FakeVideoAccount();
let keys: Keys;
let tenantId: string;
let config: Record<string, any>;
let clock: ReturnType<typeof manualClock>;
beforeAll(async () => {
  await fake.start();
  useFakeAccountApi(t, fake);
  clock = manualClock(t, new Date());
  const made = await busyTenant(t, 'Inbound Co');
  keys = made.keys;
  tenantId = made.tenant.id;
  config = await useOwnAccount(t, keys.live.secret, fake);
});
afterAll(() => fake.stop());

const live = () => client(t, keys.live.secret);
const inbound = (mpc = config.id, provider = 'cloudflare') => `/api/v1/providers/${provider}/webhooks/${mpc}`;
const notices = () => t.ctx.db.selectFrom('provider_notifications').selectAll().execute();

/** A live-input notification as the account's notification channel sends it. */
function notify(inputUid: string, event: string, secret = NOTIFICATION_SECRET, mpc = config.id) {
  const body = {
    name: 'Live Webhook',
    text: `Notification type: Stream Live Input\nInput ID: ${inputUid}\nEvent type: ${event}`,
    data: { notification_name: 'Stream Live Input', input_id: inputUid, event_type: event, updated_at: clock.now().toISOString() },
    ts: Math.floor(clock.now().getTime() / 1000),
  };
  return t.http().post(inbound(mpc)).set('cf-webhook-auth', secret).set('content-type', 'application/json').send(JSON.stringify(body));
}

/** An account webhook about a video, signed as the account signs it. */
function videoWebhook(video: object, opts: { secret?: string; time?: number; tamper?: boolean; mpc?: string } = {}) {
  const body = JSON.stringify(video);
  const time = opts.time ?? Math.floor(clock.now().getTime() / 1000);
  const sent = opts.tamper ? body.replace('"ready"', '"error"') : body;
  return t.http()
    .post(inbound(opts.mpc))
    .set('Webhook-Signature', webhookSignature(opts.secret ?? WEBHOOK_SECRET, body, time))
    .set('content-type', 'application/json')
    .send(sent);
}

async function streamOnAccount() {
  const stream = expectStatus(await live().post('/v1/streams/live_streams', { reconnect_window: 60 }), 201).data;
  const row = await t.ctx.db.selectFrom('live_streams').select('provider_ref').where('id', '=', stream.id).executeTakeFirstOrThrow();
  return { stream, uid: row.provider_ref.split(':')[1]! };
}

const status = async (id: string) => expectStatus(await live().get(`/v1/streams/live_streams/${id}`), 200).data.status;

describe('inbound signatures', () => {
  it('takes a good account webhook and refuses stale, tampered, wrongly signed and unsigned ones, recording nothing', async () => {
    const asset = expectStatus(await live().post('/v1/streams/assets', { url: 'https://media.example.com/a.mp4' }), 201).data;
    const row = await t.ctx.db.selectFrom('assets').select('provider_asset_id').where('id', '=', asset.id).executeTakeFirstOrThrow();
    const uid = row.provider_asset_id!.split(':')[1]!;
    const video = fake.finishVideo(uid, 42);
    const before = (await notices()).length;

    const now = Math.floor(clock.now().getTime() / 1000);
    expectError(await videoWebhook(video, { time: now - 301 }), 401, 'provider_webhook_refused');
    expectError(await videoWebhook(video, { tamper: true }), 401, 'provider_webhook_refused');
    expectError(await videoWebhook(video, { secret: 'another-secret' }), 401, 'provider_webhook_refused');
    expectError(await t.http().post(inbound()).set('content-type', 'application/json').send(JSON.stringify(video)), 401, 'provider_webhook_refused');
    expectError(await videoWebhook(video, { mpc: 'mpc_01kaaaaaaaaaaaaaaaaaaaaaaa' }), 404, 'resource_not_found');
    expectError(await t.http().post(inbound(config.id, 'other')).send('{}'), 404, 'resource_not_found');
    expectError(await t.http().post(inbound()).set('cf-webhook-auth', NOTIFICATION_SECRET).send('x'.repeat(300_000)), 413, 'body_too_large');
    expect((await notices()).length).toBe(before);
    expect(expectStatus(await live().get(`/v1/streams/assets/${asset.id}`), 200).data.status).toBe('preparing');

    const good = await videoWebhook(video, { time: now - 299 });
    expect(expectStatus(good, 200)).toEqual({ received: true, outcome: 'applied' });
    expect(expectStatus(await live().get(`/v1/streams/assets/${asset.id}`), 200).data).toMatchObject({ status: 'ready', duration: 42 });

    // A replayed delivery changes nothing and emits nothing.
    const events = (await eventsOf(t, tenantId, asset.id)).length;
    expect(expectStatus(await videoWebhook(video), 200).outcome).toBe('duplicate');
    expect((await eventsOf(t, tenantId, asset.id)).length).toBe(events);
  });

  it('checks the notification channel\'s shared secret', async () => {
    const { stream, uid } = await streamOnAccount();
    expectError(await notify(uid, 'live_input.connected', 'wrong-secret'), 401, 'provider_webhook_refused');
    expect(await status(stream.id)).toBe('idle');
    expect(expectStatus(await notify(uid, 'live_input.connected'), 200).outcome).toBe('applied');
    expect(await status(stream.id)).toBe('active');
  });

  it('refuses a notification about an object the tenant does not own', async () => {
    const other = (await busyTenant(t, 'Stranger Co')).keys;
    const theirs = await useOwnAccount(t, other.live.secret, fake);
    const { uid } = await streamOnAccount();
    // The stranger's configuration names a live input of ours: not theirs, so refused.
    expectError(await notify(uid, 'live_input.connected', NOTIFICATION_SECRET, theirs.id), 404, 'resource_not_found');
    expectError(await notify('0123456789abcdef0123456789abcdef', 'live_input.connected'), 404, 'resource_not_found');
    expect((await notices()).filter((n) => n.provider_config_id === theirs.id)).toEqual([]);
  });

  it('refuses a notification through a configuration of the other environment', async () => {
    const testConfig = expectStatus(await client(t, keys.test.secret).post('/v1/streams/provider_configs', configBody(fake)), 201).data;
    const { stream, uid } = await streamOnAccount();
    expectError(await notify(uid, 'live_input.connected', NOTIFICATION_SECRET, testConfig.id), 404, 'resource_not_found');
    expect(await status(stream.id)).toBe('idle');
  });

  it('answers within a second, and logs no secret of the account', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const app = createApp({ ...t.ctx, log: createLogger('trace', sink) });
    const created = await supertest(app).post('/v1/streams/provider_configs').set('authorization', `Bearer ${keys.live.secret}`).send(configBody(fake));
    expect(created.status).toBe(201);
    const { uid } = await streamOnAccount();
    const started = Date.now();
    const res = await supertest(app).post(inbound()).set('cf-webhook-auth', NOTIFICATION_SECRET).send({ data: { input_id: uid, event_type: 'live_input.connected' } });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(res.body).toEqual({ received: true, outcome: 'applied' });
    await supertest(app).post(inbound(created.body.data.id)).set('cf-webhook-auth', 'a-wrong-guess-of-the-secret').send({});
    const text = lines.join('');
    expect(text).toContain('request completed');
    for (const secret of [fake.token, fake.signingKey.pem, WEBHOOK_SECRET, NOTIFICATION_SECRET, 'a-wrong-guess-of-the-secret']) expect(text).not.toContain(secret);
  });

  it('shows a feed the account refuses (outside its constraints) as disconnected', async () => {
    const { stream, uid } = await streamOnAccount();
    expectStatus(await notify(uid, 'live_input.connected'), 200);
    clock.advance(1);
    expectStatus(await notify(uid, 'live_input.errored'), 200);
    expect(await status(stream.id)).toBe('disconnected');
  });
});

describe('a whole show on the own account', () => {
  it('create, connect, active, disconnect, idle, recording ready, moment clip ready — with the same events as the simulated network', async () => {
    const { stream, uid } = await streamOnAccount();
    const start = clock.now();
    fake.addRecording(uid, start);
    expectStatus(await notify(uid, 'live_input.connected'), 200);
    expect(await status(stream.id)).toBe('active');

    clock.advance(30);
    const moment = expectStatus(
      await live().post(`/v1/streams/live_streams/${stream.id}/moments`, { type: 'goal', label: 'Goal', customer: 'fan-1', clip_before_s: 10, clip_after_s: 5 }),
      201,
    ).data;
    expect(moment.clip_status).toBe('pending');

    clock.advance(30);
    expectStatus(await notify(uid, 'live_input.disconnected'), 200);
    expect(await status(stream.id)).toBe('disconnected');
    clock.advance(61);
    await expireReconnectWindow(streamsDeps(t.ctx), { tenantId, livemode: true, liveStreamId: stream.id });
    expect(await status(stream.id)).toBe('idle');

    const streamEvents = await eventsOf(t, tenantId, stream.id);
    // The account's notices are not requests the tenant made: the events they cause name none.
    const active = streamEvents.find((e) => e.type === 'streams.live_stream.active');
    expect(active!.request).toBeNull();
    const types = typesOf(streamEvents);
    expect(types).toEqual([
      'streams.live_stream.created',
      'streams.live_stream.updated',
      'streams.live_stream.active',
      'streams.live_stream.disconnected',
      'streams.live_stream.idle',
    ]);

    // The clip waits while the account still holds the recording open.
    const [firstTry] = await takeClipTries(t);
    clock.set(firstTry!.startAfter);
    await runClipTry(t, firstTry!.data);
    expect(fake.requestsTo('POST', '/stream/clip')).toHaveLength(0);

    // The account closes the recording and says so.
    const recordingVideo = [...fake.videos.values()].find((v) => v.liveInput === uid)!;
    fake.finishVideo(recordingVideo.uid, 61);
    expectStatus(await videoWebhook(recordingVideo), 200);
    const recording = (await eventsOf(t, tenantId)).filter((e) => e.type === 'streams.asset.ready' && e.data.object.source === 'recording').at(-1)!;
    expect(recording.data.object).toMatchObject({ status: 'ready', duration: 61, provider: 'cloudflare' });

    const [retry] = await takeClipTries(t);
    clock.set(retry!.startAfter);
    await runClipTry(t, retry!.data);
    const cut = fake.requestsTo('POST', '/stream/clip').at(-1)!;
    expect(cut.body).toEqual({ clippedFromVideoUID: recordingVideo.uid, startTimeSeconds: 20, endTimeSeconds: 35, requireSignedURLs: true });

    const clipVideo = [...fake.videos.values()].at(-1)!;
    fake.finishVideo(clipVideo.uid, 15);
    expectStatus(await videoWebhook(clipVideo), 200);
    const ready = (await eventsOf(t, tenantId, moment.id)).find((e) => e.type === 'streams.moment.clip_ready');
    expect(ready?.data.object).toMatchObject({ customer: 'fan-1', clip_status: 'ready', clip_asset: expect.stringMatching(/^ast_/) });

    // Deleting the stream deletes its recording on the account, and the recording asset, a window and a minute later.
    expectStatus(await live().delete(`/v1/streams/live_streams/${stream.id}`), 200);
    const { rows } = await sql<{ data: any }>`
      delete from pgboss.job where name = ${deleteOwnAccountRecordingsJobType.name} returning data`.execute(t.ctx.db);
    await deleteOwnAccountRecordings(mediaDeps(t.ctx), rows[0]!.data);
    expect(fake.videos.has(recordingVideo.uid)).toBe(false);
    expect(typesOf(await eventsOf(t, tenantId, recording.subject)).at(-1)).toBe('streams.asset.deleted');
  });

  it('makes the asset of a direct upload when the account reports the file, and an errored one errored', async () => {
    const upload = expectStatus(await live().post('/v1/streams/uploads', {}), 201).data;
    const uid = upload.url.split('/').at(-1);
    const video = fake.finishVideo(uid, 12, 'error');
    expectStatus(await videoWebhook(video), 200);
    const after = expectStatus(await live().get(`/v1/streams/uploads/${upload.id}`), 200).data;
    expect(after.status).toBe('asset_created');
    const asset = expectStatus(await live().get(`/v1/streams/assets/${after.asset}`), 200).data;
    expect(asset).toMatchObject({ status: 'errored', error: 'Codec not supported', source: 'upload' });
    expect(typesOf(await eventsOf(t, tenantId, asset.id))).toEqual(['streams.asset.created', 'streams.asset.errored']);
  });
});
