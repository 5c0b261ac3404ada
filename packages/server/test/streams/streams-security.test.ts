import { contract, type RouteAccess } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf } from '../../src/core/unknown-route';
import { createPlaybackLink } from '../../src/modules/streams/playback-ids/playback-ids.service';
import { streamsDeps } from '../../src/modules/streams/streams-deps';
import { bearer, useTestServer, type TestServer } from '../harness';
import { client, createStream, drive, eventsOf, expectError, expectStatus, setVideo, simulate } from './live-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

const DUMMY_ID = '01h455vb4pex5vsknk084sn02q';
/** Every Streams route of the whole API, whichever router declares it (e.g. `POST /v1/streams/playback_tokens` is Access's). */
const streamsRoutes = routesOf(contract).filter((r) => r.path.startsWith('/v1/streams/') || /^\/v1\/test_helpers\/(live_streams|assets)\//.test(r.path));
const accessOf = (route: { metadata?: unknown }) => (route.metadata as { access: RouteAccess }).access;
const send = (method: string, path: string) => {
  const http = t.http();
  return method === 'GET' ? http.get(path) : method === 'POST' ? http.post(path) : method === 'PATCH' ? http.patch(path) : method === 'PUT' ? http.put(path) : http.delete(path);
};

describe('403 product_not_enabled', () => {
  it('every Streams API route declares the Streams product; only the simulated playback routes are public', () => {
    for (const route of streamsRoutes) {
      const a = accessOf(route);
      if (route.path.startsWith('/v1/streams/playback/')) expect(a.auth).toBe('public');
      else expect(a, `${route.method} ${route.path}`).toMatchObject({ auth: 'tenant', product: 'streams' });
    }
  });

  it('answers every Streams route of a tenant with Streams off with 403 product_not_enabled', async () => {
    const { tenant, keys } = await t.tenant('No Streams', ['events']);
    let checked = 0;
    for (const route of streamsRoutes) {
      if (accessOf(route).auth !== 'tenant') continue;
      const path = route.path.replace(/:([a-z_]+)/g, (_, name: string) => `${name === 'external_id' ? 'ext' : 'ls'}_${DUMMY_ID}`);
      const res = await send(route.method, path).set(bearer(keys.test.secret)).send({});
      expectError(res, 403, 'product_not_enabled');
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(20);
    // Switching the product off also stops playback of objects made while it was on.
    const { tenant: on, keys: onKeys } = await t.tenant('Streams Then Off');
    const stream = await createStream(t, onKeys.test.secret, { playback_policy: 'public' });
    const pb = stream.playback_ids[0].id;
    expect((await t.http().get(`/v1/streams/playback/${pb}.m3u8`)).status).toBe(200);
    expectStatus(await t.http().patch(`/v1/operator/tenants/${on.id}`).set(t.operator).send({ products: ['events'] }), 200);
    expectError(await t.http().get(`/v1/streams/playback/${pb}.m3u8`), 403, 'product_not_enabled');
    expectError(await client(t, onKeys.test.secret).get(`/v1/streams/live_streams/${stream.id}`), 403, 'product_not_enabled');
    expect(tenant.id).not.toBe(on.id);
  });
});

describe('credentials and scopes', () => {
  it('restricted keys need streams:read to read and streams:write to change; publishable keys are refused', async () => {
    const { keys } = await t.tenant('Scoped');
    const owner = client(t, keys.test.secret);
    const stream = await createStream(t, keys.test.secret);
    const reader = expectStatus(await owner.post('/v1/keys', { type: 'restricted', scopes: ['streams:read'] }), 201).data.secret;
    const writer = expectStatus(await owner.post('/v1/keys', { type: 'restricted', scopes: ['streams:write'] }), 201).data.secret;
    const other = expectStatus(await owner.post('/v1/keys', { type: 'restricted', scopes: ['events:write'] }), 201).data.secret;
    expectStatus(await client(t, reader).get(`/v1/streams/live_streams/${stream.id}`), 200);
    expectStatus(await client(t, reader).get('/v1/streams/signing_keys'), 200);
    expectError(await client(t, reader).post('/v1/streams/live_streams', {}), 403, 'missing_scope');
    expectError(await client(t, reader).post(`/v1/streams/live_streams/${stream.id}/disable`), 403, 'missing_scope');
    expectError(await client(t, reader).post('/v1/streams/playback_ids', { resource: stream.id }), 403, 'missing_scope');
    expectError(await client(t, other).get('/v1/streams/live_streams'), 403, 'missing_scope');
    expectStatus(await client(t, writer).post('/v1/streams/live_streams', {}), 201);
    expectStatus(await client(t, writer).get('/v1/streams/live_streams'), 200);
    const pub = await t.http().get('/v1/streams/live_streams').set('Svc-Publishable-Key', keys.test.publishable);
    expectError(pub, 403, 'insufficient_permissions');
    expectError(await t.http().get('/v1/streams/live_streams'), 401, 'api_key_missing');
  });
});

describe('tenant and environment isolation', () => {
  it('answers 404 on every live-stream, playback-id, signing-key and test-helper route for another tenant\'s or environment\'s objects', async () => {
    const a = await t.tenant('Owner A');
    const b = await t.tenant('Intruder B');
    await setVideo(t, a.tenant.id, { live_network: 'simulated', dedicated_environment: true });
    await setVideo(t, b.tenant.id, { live_network: 'simulated', dedicated_environment: true });
    const stream = await createStream(t, a.keys.test.secret, {
      external_id: 'a-stream',
      simulcast_targets: [{ url: 'rtmps://live.example.com/app', stream_key: 'k' }],
    });
    const target = stream.simulcast_targets[0].id;
    const pb = stream.playback_ids[0].id;
    const signingKey = expectStatus(await client(t, a.keys.test.secret).post('/v1/streams/signing_keys'), 201).data;

    const strangers = { 'another tenant': b.keys.test.secret, 'the other environment': a.keys.live.secret, 'another tenant, live': b.keys.live.secret };
    for (const [who, secret] of Object.entries(strangers)) {
      const c = client(t, secret);
      const attempts: Array<[string, Promise<any>]> = [
        ['retrieve', c.get(`/v1/streams/live_streams/${stream.id}`)],
        ['by external id', c.get('/v1/streams/live_streams/external/a-stream')],
        ['update', c.patch(`/v1/streams/live_streams/${stream.id}`, { metadata: { x: 'y' } })],
        ['delete', c.delete(`/v1/streams/live_streams/${stream.id}`)],
        ['disable', c.post(`/v1/streams/live_streams/${stream.id}/disable`)],
        ['enable', c.post(`/v1/streams/live_streams/${stream.id}/enable`)],
        ['complete', c.post(`/v1/streams/live_streams/${stream.id}/complete`)],
        ['reset key', c.post(`/v1/streams/live_streams/${stream.id}/reset_stream_key`)],
        ['add target', c.post(`/v1/streams/live_streams/${stream.id}/simulcast_targets`, { url: 'rtmp://x.example.com/a', stream_key: 'k' })],
        ['remove target', c.delete(`/v1/streams/live_streams/${stream.id}/simulcast_targets/${target}`)],
        ['add playback id', c.post('/v1/streams/playback_ids', { resource: stream.id })],
        ['delete playback id', c.delete(`/v1/streams/playback_ids/${pb}`)],
        ['revoke signing key', c.delete(`/v1/streams/signing_keys/${signingKey.id}`)],
      ];
      if (secret === b.keys.test.secret) attempts.push(['simulate', simulate(t, secret, stream.id, { event: 'connected' })]);
      for (const [what, pending] of attempts) {
        const res = await pending;
        expect(res.status, `${who}: ${what} ${JSON.stringify(res.body)}`).toBe(404);
        expect(res.body.error.code).toBe('resource_not_found');
      }
      const list = expectStatus(await c.get('/v1/streams/live_streams?limit=100'), 200).data;
      expect(list.map((s: any) => s.id)).not.toContain(stream.id);
      expect(expectStatus(await c.get('/v1/streams/live_streams?external_id=a-stream'), 200).data).toEqual([]);
      const keysListed = expectStatus(await c.get('/v1/streams/signing_keys'), 200).data;
      expect(keysListed.map((k: any) => k.id)).not.toContain(signingKey.id);
    }
    // Nothing changed for the owner.
    const after = expectStatus(await client(t, a.keys.test.secret).get(`/v1/streams/live_streams/${stream.id}`), 200).data;
    expect(after).toMatchObject({ status: 'idle', metadata: {}, sequence: 1 });
    expect(after.ingest.stream_key).toBe(stream.ingest.stream_key);
    expect(after.simulcast_targets).toHaveLength(1);
  });
});

describe('secrets never leave in events', () => {
  it('no stream key, SRT passphrase, simulcast key or private key appears in any event', async () => {
    const { tenant, keys } = await t.tenant('Secret Keeper');
    await setVideo(t, tenant.id, { dedicated_environment: true });
    const c = client(t, keys.test.secret);
    const simulcastKey = 'simulcast-secret-key-0123456789';
    const stream = await createStream(t, keys.test.secret, { simulcast_targets: [{ url: 'rtmps://live.example.com/app', stream_key: simulcastKey }] });
    const secrets = [stream.ingest.stream_key, stream.ingest.srt_passphrase, simulcastKey];
    const reset = expectStatus(await c.post(`/v1/streams/live_streams/${stream.id}/reset_stream_key`), 200).data;
    secrets.push(reset.ingest.stream_key, reset.ingest.srt_passphrase);
    const second = expectStatus(await c.post(`/v1/streams/live_streams/${stream.id}/simulcast_targets`, { url: 'rtmp://b.example.com/app', stream_key: 'second-simulcast-secret' }), 201).data;
    secrets.push('second-simulcast-secret');
    await drive(t, keys.test.secret, stream.id, 'connected', 'active', 'unhealthy', 'recovered', 'disconnected', 'connected');
    await c.patch(`/v1/streams/live_streams/${stream.id}`, { metadata: { a: 'b' } });
    await c.post('/v1/streams/playback_ids', { resource: stream.id });
    await c.delete(`/v1/streams/live_streams/${stream.id}/simulcast_targets/${second.id}`);
    await c.post(`/v1/streams/live_streams/${stream.id}/disable`);
    await c.post(`/v1/streams/live_streams/${stream.id}/enable`);
    const signing = expectStatus(await c.post('/v1/streams/signing_keys'), 201).data;
    const link = await createPlaybackLink(streamsDeps(t.ctx), { tenantId: tenant.id, livemode: false }, stream.playback_ids[0].id, new Date(Date.now() + 60_000));
    await c.delete(`/v1/streams/live_streams/${stream.id}`);

    const events = await eventsOf(t, tenant.id);
    expect(events.length).toBeGreaterThanOrEqual(14);
    const text = JSON.stringify(events);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain(signing.private_key.split('\n')[1]);
    expect(text).not.toContain(link.token);
    expect(text).not.toMatch(/"(stream_key|srt_passphrase|private_key)"/);
    for (const e of events.filter((x) => x.type.startsWith('streams.live_stream.'))) {
      expect(Object.keys(e.data.object.ingest).sort()).toEqual(['rtmp_backup_url', 'rtmp_url', 'srt_url', 'whip_url']);
    }
    // The sealed columns never hold the plain keys either.
    const rows = await t.ctx.db.selectFrom('simulcast_targets').selectAll().where('tenant_id', '=', tenant.id).execute();
    expect(JSON.stringify(rows)).not.toContain(simulcastKey);
  });
});
