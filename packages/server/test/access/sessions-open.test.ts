import { describe, expect, it } from 'vitest';
import {
  advance,
  browser,
  useAccessTestServer,
  createStream,
  entitled,
  expectError,
  expectStatus,
  grant,
  now,
  open,
  pathOf,
  server,
  setClock,
  viewerSetup,
} from './access-fixtures';

const t = useAccessTestServer();

describe('opening a session', () => {
  it('answers the session and its grant as the spec describes, and the link plays', async () => {
    const e = await entitled(t);
    const before = now(t).getTime();
    const session = expectStatus(await e.openFor('laptop'), 201).data;
    expect(session).toMatchObject({
      object: 'access_session',
      livemode: false,
      entitlement: e.entitlement.id,
      customer: 'viewer-1',
      contact_hash: null,
      resource: { type: 'ls', id: e.stream.id, variant: null },
      device_id: 'laptop',
      state: 'active',
      ended_reason: null,
      heartbeat_interval: 30,
      ended_at: null,
    });
    expect(session.id).toMatch(/^as_/);
    const expiresAt = Date.parse(session.expires_at);
    expect(expiresAt - before).toBeGreaterThanOrEqual(90_000);
    expect(expiresAt - before).toBeLessThan(95_000);
    const { grant: g } = session;
    expect(g.failover).toEqual({ max_errors: 3, window_seconds: 60 });
    expect(g.heartbeat_interval).toBe(30);
    expect(Date.parse(g.token_expires_at) - expiresAt).toBe(600_000);
    expect(g.sources).toHaveLength(1);
    expect(g.sources[0].provider).toBe('simulated');
    const signedId = e.stream.playback_ids.find((p: { policy: string }) => p.policy === 'signed').id;
    expect(g.sources[0].url).toContain(`/v1/streams/playback/${signedId}.m3u8?token=`);
    const played = await t.http().get(pathOf(g.sources[0].url));
    expect(played.status, played.text).toBe(200);
    expect(played.text).toContain('#EXTM3U');
  });

  it('takes POST /v1/streams/playback_tokens with the same rules, and the resource as {type, id, variant}', async () => {
    const e = await entitled(t, { max_concurrent_sessions: 1, concurrency_policy: 'reject_new' });
    const session = expectStatus(
      await server(t, e.sk).post('/v1/streams/playback_tokens', {
        resource: { type: 'ls', id: e.stream.id, variant: 'sw' },
        customer: 'viewer-1',
        device_id: 'tv',
      }),
      201,
    ).data;
    expect(session.resource).toEqual({ type: 'ls', id: e.stream.id, variant: 'sw' });
    expect(session.grant.sources[0].url).toContain('token=');
    const second = await server(t, e.sk).post('/v1/streams/playback_tokens', { resource: e.stream.id, customer: 'viewer-1', device_id: 'phone' });
    expectError(second, 409, 'concurrency_limit_reached');
  });

  it('prefers a signed playback id, and gives a public one with no token and token_expires_at null', async () => {
    const s = await viewerSetup(t);
    const pub = await createStream(t, s.sk, { playback_policy: 'public' });
    await grant(t, s.sk, { customer: 'viewer-1', resource: { type: 'ls', id: pub.id } });
    const session = expectStatus(await open(t, s.sk, { resource: pub.id, customer: 'viewer-1', device_id: 'd' }), 201).data;
    expect(pub.playback_ids.every((p: { policy: string }) => p.policy === 'public')).toBe(true);
    expect(session.grant.token_expires_at).toBeNull();
    expect(session.grant.sources[0].url).not.toContain('token=');
    expect((await t.http().get(pathOf(session.grant.sources[0].url))).status).toBe(200);

    const added = expectStatus(await server(t, s.sk).post('/v1/streams/playback_ids', { resource: pub.id, policy: 'signed' }), 201).data;
    const again = expectStatus(await open(t, s.sk, { resource: pub.id, customer: 'viewer-1', device_id: 'd' }), 201).data;
    expect(again.grant.sources[0].url).toContain(`/v1/streams/playback/${added.id}.m3u8?token=`);
    expect(again.grant.token_expires_at).not.toBeNull();
  });

  it('opens sessions on assets once they are ready (409 asset_not_ready before)', async () => {
    const s = await viewerSetup(t);
    const asset = expectStatus(await server(t, s.sk).post('/v1/streams/assets', { url: 'https://media.example.com/v.mp4' }), 201).data;
    await grant(t, s.sk, { customer: 'viewer-1', resource: { type: 'ast', id: asset.id } });
    const body = { resource: asset.id, customer: 'viewer-1', device_id: 'd' };
    expectError(await open(t, s.sk, body), 409, 'asset_not_ready');
    expectStatus(await server(t, s.sk).post(`/v1/test_helpers/assets/${asset.id}/simulate`, { event: 'ready' }), 200);
    const session = expectStatus(await open(t, s.sk, body), 201).data;
    expect(session.resource).toEqual({ type: 'ast', id: asset.id, variant: null });
    expect((await t.http().get(pathOf(session.grant.sources[0].url))).status).toBe(200);
  });

  it('refuses a disabled stream (409 stream_disabled) and one without playback ids (409 no_playback_id), using no view', async () => {
    const e = await entitled(t, { max_views: 1 });
    expectStatus(await server(t, e.sk).post(`/v1/streams/live_streams/${e.stream.id}/disable`), 200);
    expectError(await e.openFor('a'), 409, 'stream_disabled');
    expectStatus(await server(t, e.sk).post(`/v1/streams/live_streams/${e.stream.id}/enable`), 200);
    for (const p of e.stream.playback_ids) expectStatus(await server(t, e.sk).delete(`/v1/streams/playback_ids/${p.id}`), 200);
    expectError(await e.openFor('a'), 409, 'no_playback_id');
    expectStatus(await server(t, e.sk).post('/v1/streams/playback_ids', { resource: e.stream.id }), 201);
    expectStatus(await e.openFor('a'), 201);
  });

  it('answers 403 access_denied with every reason', async () => {
    const s = await viewerSetup(t);
    const start = now(t);
    // Held still until the grants are made: on a loaded machine they can take longer than the 1 s entitlement lasts.
    setClock(t, start);
    const resource = { type: 'ls', id: s.stream.id };
    const body = (customer: string, extra: object = {}) => ({ resource: s.stream.id, customer, device_id: 'd', ...extra });
    const revoked = await grant(t, s.sk, { customer: 'revoked', resource });
    expectStatus(await server(t, s.sk).delete(`/v1/access/entitlements/${revoked.id}`), 200);
    const suspended = await grant(t, s.sk, { customer: 'suspended', resource });
    expectStatus(await server(t, s.sk).post(`/v1/access/entitlements/${suspended.id}/suspend`), 200);
    await grant(t, s.sk, { customer: 'expired', resource, ends_at: new Date(start.getTime() + 1000).toISOString() });
    await grant(t, s.sk, { customer: 'later', resource, starts_at: new Date(start.getTime() + 3600_000).toISOString() });
    await grant(t, s.sk, { customer: 'geo', resource, limits: { allowed_countries: ['KE'] } });
    await grant(t, s.sk, { customer: 'site', resource, limits: { allowed_domains: ['watch.example.com'] } });
    advance(t, 2000);
    const cases: Array<[string, object]> = [
      ['no_entitlement', body('nobody')],
      ['revoked', body('revoked')],
      ['suspended', body('suspended')],
      ['expired', body('expired')],
      ['not_started', body('later')],
      ['country_not_allowed', body('geo', { country: 'UG' })],
      ['country_not_allowed', body('geo')],
      ['domain_not_allowed', body('site', { domain: 'example.com' })],
      ['domain_not_allowed', body('site')],
    ];
    for (const [reason, b] of cases) {
      const res = await open(t, s.sk, b);
      expectError(res, 403, 'access_denied', { reason: reason });
      expect(res.body.error.type).toBe('permission_error');
    }
    expectStatus(await open(t, s.sk, body('geo', { country: 'KE' })), 201);
    expectStatus(await open(t, s.sk, body('site', { domain: 'watch.example.com' })), 201);
  });

  it('answers 403 product_not_enabled when Streams is off, and 401 for a bad customer token', async () => {
    const e = await entitled(t);
    const res = await t.http().patch(`/v1/operator/tenants/${e.tenant.tenant.id}`).set(t.operator).send({ products: ['events'] });
    expectStatus(res, 200);
    expectError(await e.openFor('d'), 403, 'product_not_enabled');
    expectError(await browser(t, e.pk, `${e.token}x`).post('/v1/access/sessions', { resource: e.stream.id, device_id: 'd' }), 403, 'product_not_enabled');
    const other = await entitled(t);
    expectError(await browser(t, other.pk, 'nope').post('/v1/access/sessions', { resource: other.stream.id, device_id: 'd' }), 401, 'invalid_customer_token', { reason: 'malformed' });
  });

  it('validates the body: 422 for a missing device, a missing or doubled customer; 404 for an id that is no stream or asset', async () => {
    const e = await entitled(t);
    expectError(await open(t, e.sk, { resource: e.stream.id, customer: 'viewer-1' }), 422, 'validation_failed');
    expectError(await open(t, e.sk, { resource: e.stream.id, device_id: 'd' }), 422, 'validation_failed');
    expectError(await open(t, e.sk, { resource: e.stream.id, device_id: 'd', customer: 'viewer-1', contact_hash: 'a'.repeat(64) }), 422, 'validation_failed');
    expectError(await open(t, e.sk, { resource: { type: 'ls', id: e.stream.id, variant: '' }, customer: 'viewer-1', device_id: 'd' }), 422, 'validation_failed');
    expectError(await open(t, e.sk, { resource: 'evt_123', customer: 'viewer-1', device_id: 'd' }), 404, 'resource_not_found');
    expectError(await open(t, e.sk, { resource: { type: 'ast', id: e.stream.id }, customer: 'viewer-1', device_id: 'd' }), 404, 'resource_not_found');
    const viewer = browser(t, e.pk, e.token);
    expectError(await viewer.post('/v1/access/sessions', { resource: e.stream.id, device_id: 'd', customer: 'someone-else' }), 422, 'validation_failed');
    expectStatus(await viewer.post('/v1/access/sessions', { resource: e.stream.id, device_id: 'd', customer: 'viewer-1' }), 201);
  });

  it('opens sessions for a contact hash', async () => {
    const s = await viewerSetup(t);
    const hash = 'B'.repeat(64);
    await grant(t, s.sk, { contact_hash: hash, resource: { type: 'ls', id: s.stream.id } });
    const session = expectStatus(await open(t, s.sk, { resource: s.stream.id, contact_hash: hash, device_id: 'd' }), 201).data;
    expect(session).toMatchObject({ customer: null, contact_hash: hash.toLowerCase() });
  });

  it('checks restricted keys: access:write opens sessions, streams:write playback tokens, heartbeats and ends', async () => {
    const e = await entitled(t);
    const make = async (scopes: string[]) => expectStatus(await server(t, e.sk).post('/v1/keys', { type: 'restricted', scopes }), 201).data.secret as string;
    const access = await make(['access:write']);
    const streams = await make(['streams:write']);
    const reader = await make(['access:read', 'streams:read']);
    const body = { resource: e.stream.id, customer: 'viewer-1', device_id: 'd' };
    expectStatus(await server(t, access).post('/v1/access/sessions', body), 201);
    expectStatus(await server(t, access).post('/v1/streams/playback_tokens', body), 201);
    const viaStreams = expectStatus(await server(t, streams).post('/v1/streams/playback_tokens', body), 201).data;
    expectError(await server(t, streams).post('/v1/access/sessions', body), 403, 'missing_scope');
    expectStatus(await server(t, streams).post(`/v1/access/sessions/${viaStreams.id}/heartbeat`), 200);
    expectError(await server(t, reader).post(`/v1/access/sessions/${viaStreams.id}/heartbeat`), 403, 'missing_scope');
    expectError(await server(t, reader).post('/v1/streams/playback_tokens', body), 403, 'missing_scope');
    expectStatus(await server(t, streams).delete(`/v1/access/sessions/${viaStreams.id}`), 200);
  });
});
