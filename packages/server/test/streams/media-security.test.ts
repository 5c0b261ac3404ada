import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import {
  client,
  createLiveStream,
  eventsOf,
  expectError,
  expectStatus,
  manualClock,
  readyAsset,
  runClipTry,
  simulateStream,
  takeClipTries,
  useMediaTenant,
} from './media-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });
const tenant = useMediaTenant(t, 'Owner');
const { keys, api } = tenant;
/** One object of each kind, owned by the tenant's test environment. */
const ids: Record<'asset' | 'upload' | 'clip' | 'stream' | 'moment' | 'recording', string> = {} as never;
let uploadUrl: string;
let streamKey: string;

beforeAll(async () => {
  // Refused requests draw from the client IP's bucket; this file sends many on purpose.
  const clock = manualClock(t);

  const asset = await readyAsset(t, keys.test.secret, 60, { metadata: { k: 'v' } });
  ids.asset = asset.id;
  ids.clip = expectStatus(await api.post(`/v1/streams/assets/${asset.id}/clips`, { start_time: 0, end_time: 5 }), 201).data.clip;
  const upload = expectStatus(await api.post('/v1/streams/uploads', { cors_origin: '*' }), 201).data;
  ids.upload = upload.id;
  uploadUrl = upload.url;
  const u = new URL(upload.url);
  expectStatus(await t.http().put(`${u.pathname}${u.search}`).send(Buffer.alloc(8)), 200);

  const stream = await createLiveStream(t, keys.test.secret);
  ids.stream = stream.id;
  streamKey = stream.ingest.stream_key;
  await simulateStream(t, keys.test.secret, stream.id, 'connected', 'active');
  clock.advance(20);
  ids.moment = expectStatus(await api.post(`/v1/streams/live_streams/${stream.id}/moments`, { type: 'goal', customer: 'c1', clip_before_s: 5, clip_after_s: 5 }), 201).data.id;
  const [job] = await takeClipTries(t);
  clock.set(job!.startAfter);
  await runClipTry(t, job!.data);
  ids.recording = expectStatus(await api.get('/v1/streams/assets?source=recording'), 200).data[0].id;
  await simulateStream(t, keys.test.secret, stream.id, 'disconnected', 'idle');
  t.ctx.clock = undefined;
});

/** Every route of assets, uploads, clips and moments, with a valid body, on the objects above. */
const routes = () =>
  [
    ['GET', '/v1/streams/assets', undefined],
    ['POST', '/v1/streams/assets', { url: 'https://media.example.com/a.mp4' }],
    ['GET', `/v1/streams/assets/${ids.asset}`, undefined],
    ['GET', '/v1/streams/assets/external/none', undefined],
    ['PATCH', `/v1/streams/assets/${ids.asset}`, { metadata: { a: 'b' } }],
    ['DELETE', `/v1/streams/assets/${ids.asset}`, undefined],
    ['POST', `/v1/test_helpers/assets/${ids.asset}/simulate`, { event: 'ready' }],
    ['POST', '/v1/streams/uploads', {}],
    ['GET', `/v1/streams/uploads/${ids.upload}`, undefined],
    ['POST', `/v1/streams/assets/${ids.asset}/clips`, { start_time: 0, end_time: 1 }],
    ['GET', `/v1/streams/clips/${ids.clip}`, undefined],
    ['POST', `/v1/streams/live_streams/${ids.stream}/moments`, { type: 'goal' }],
    ['GET', `/v1/streams/moments/${ids.moment}`, undefined],
    ['POST', `/v1/streams/moments/${ids.moment}/cancel`, undefined],
    ['GET', `/v1/streams/assets/${ids.recording}/moments`, undefined],
  ] as const;

function send(key: string | null, method: string, path: string, body: object | undefined) {
  let req = t.http()[method.toLowerCase() as 'get'](path);
  if (key) req = req.set('Authorization', `Bearer ${key}`);
  return body === undefined ? req : req.send(body);
}

/** The routes that name one of the objects above. */
const objectRoutes = () => routes().filter(([, path]) => Object.values(ids).some((id) => path.includes(id)));

describe('tenant and environment isolation', () => {
  it('answers 404 to another tenant on every route that names an object', async () => {
    const { keys: other } = await t.tenant('Stranger');
    for (const [method, path, body] of objectRoutes()) {
      expectError(await send(other.test.secret, method, path, body), 404, 'resource_not_found');
    }
  });

  it('answers 404 to the same tenant\'s live keys on every route that names a test object', async () => {
    for (const [method, path, body] of objectRoutes()) {
      if (path.startsWith('/v1/test_helpers')) continue; // live keys are refused there before any lookup (asset tests)
      expectError(await send(keys.live.secret, method, path, body), 404, 'resource_not_found');
    }
  });

  it('lists only the caller\'s environment', async () => {
    const { keys: other } = await t.tenant('Stranger');
    expect(expectStatus(await client(t, other.test.secret).get('/v1/streams/assets'), 200).data).toEqual([]);
    expect(expectStatus(await client(t, keys.live.secret).get('/v1/streams/assets'), 200).data).toEqual([]);
  });
});

describe('credentials', () => {
  it('refuses every route without a key (401) and with a publishable key (403)', async () => {
    for (const [method, path, body] of routes()) {
      expectError(await send(null, method, path, body), 401, 'api_key_missing');
      const res = await t.http()[method.toLowerCase() as 'get'](path).set('Svc-Publishable-Key', keys.test.publishable).send(body);
      expectError(res, 403, 'insufficient_permissions');
    }
  });

  it('answers 403 product_not_enabled on every route when the tenant has Streams off', async () => {
    const off = await t.tenant('No streams', ['events']);
    for (const [method, path, body] of routes()) {
      expectError(await send(off.keys.test.secret, method, path, body), 403, 'product_not_enabled');
    }
  });

  it('lets a streams:read restricted key read but not write', async () => {
    const reader = expectStatus(await api.post('/v1/keys', { type: 'restricted', scopes: ['streams:read'] }), 201).data.secret;
    const none = expectStatus(await api.post('/v1/keys', { type: 'restricted', scopes: ['platform:read'] }), 201).data.secret;
    for (const [method, path, body] of routes()) {
      const res = await send(reader, method, path, body);
      if (path.startsWith('/v1/test_helpers')) expectError(res, 403, 'insufficient_permissions');
      else if (method === 'GET') expect(res.status, `${method} ${path} ${JSON.stringify(res.body)}`).toBe(path.includes('/external/') ? 404 : 200);
      else expectError(res, 403, 'missing_scope');
      expectError(await send(none, method, path, body), 403, path.startsWith('/v1/test_helpers') ? 'insufficient_permissions' : 'missing_scope');
    }
  });
});

describe('secrets in events', () => {
  it('no event carries the upload url or its token, the stream key, or the source url', async () => {
    const events = await eventsOf(t, tenant.id);
    const types = new Set(events.map((e) => e.type));
    for (const type of ['streams.asset.created', 'streams.asset.ready', 'streams.clip.created', 'streams.upload.asset_created', 'streams.moment.clip_ready']) {
      expect(types).toContain(type);
    }
    const text = JSON.stringify(events);
    const token = new URL(uploadUrl).searchParams.get('token')!;
    expect(text).not.toContain(token);
    expect(text).not.toContain('token=');
    expect(text).not.toContain(streamKey);
    expect(text).not.toContain('media.example.com');
    for (const e of events.filter((e) => e.type.startsWith('streams.upload.'))) expect(e.data.object).not.toHaveProperty('url');
  });
});
