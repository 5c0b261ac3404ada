import { setupServer } from 'msw/node';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, PermissionError, Svc, SvcOperator } from '../src';
import { createSvcMock } from '../src/msw';

const baseUrl = 'https://creds.svc.test';
const mock = createSvcMock({ baseUrl, operatorToken: 'op_right' });
const received: Array<{ body: string; signature: string | null }> = [];
const server = setupServer(
  ...mock.handlers,
  http.post('https://tenant.example/hooks', async ({ request }) => {
    received.push({ body: await request.text(), signature: request.headers.get('svc-signature') });
    return new HttpResponse(null, { status: 204 });
  }),
);
const secretKey = `sk_test_${'s'.repeat(40)}`;
const svc = new Svc({ apiKey: secretKey, baseUrl, maxRetries: 0 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  mock.reset();
  received.length = 0;
});
afterAll(() => server.close());

describe('msw mocks: secrets, credentials, seeds and events like the server', () => {
  it('issues secrets in the server shapes, which the SDK takes', async () => {
    const tokenKey = await svc.access.customerTokenKeys.create({ name: 'web' });
    expect(tokenKey.secret).toMatch(/^cts_[0-9A-Za-z]{48}$/);
    await expect(svc.customerTokens.sign({ keyId: tokenKey.id, secret: tokenKey.secret!, sub: 'viewer-1' })).resolves.toMatch(/^ey/);
    const endpoint = await svc.webhookEndpoints.create({ url: 'https://tenant.example/hooks', enabled_events: ['*'] });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const key = await svc.keys.create({ type: 'restricted', scopes: ['streams:read'] });
    expect(key.secret).toMatch(/^rk_test_[0-9A-Za-z]{40}$/);
    expect(key.redacted).toBe(`${key.secret!.slice(0, 16)}…`);
    expect((await svc.keys.retrieve(key.id)).secret).toBeUndefined();
    expect((await svc.webhookEndpoints.rollSecret(endpoint.id)).secret).not.toBe(endpoint.secret);
  });

  it('checks keys as the server does', async () => {
    const call = (apiKey: string) => new Svc({ apiKey, baseUrl, maxRetries: 0 }).streams.liveStreams.list().then(() => 'ok', (e) => e);
    expect(await call('not-a-key')).toMatchObject({ code: 'api_key_invalid', status: 401 });
    expect(await call(`pk_test_${'p'.repeat(40)}`)).toBeInstanceOf(PermissionError);
    expect(await call(`pk_test_${'p'.repeat(40)}`)).toMatchObject({ code: 'insufficient_permissions' });
    expect(await call(secretKey)).toBe('ok');

    const restricted = await svc.keys.create({ type: 'restricted', scopes: ['streams:read'] });
    expect(await call(restricted.secret!)).toBe('ok');
    const writing = await new Svc({ apiKey: restricted.secret!, baseUrl, maxRetries: 0 }).streams.liveStreams.create({}).catch((e) => e);
    expect(writing).toMatchObject({ code: 'missing_scope', status: 403 });
    await svc.keys.revoke(restricted.id);
    expect(await call(restricted.secret!)).toBeInstanceOf(AuthenticationError);
    expect(await call(restricted.secret!)).toMatchObject({ code: 'api_key_revoked' });

    const live = await new Svc({ apiKey: `sk_live_${'l'.repeat(40)}`, baseUrl, maxRetries: 0 }).streams.liveStreamTestHelpers.simulate('ls_1', { event: 'active' } as never).catch((e) => e);
    expect(live).toMatchObject({ code: 'live_mode_unavailable' });

    const wrongOperator = await new SvcOperator({ operatorToken: 'op_wrong', baseUrl, maxRetries: 0 }).operator.listTenants().catch((e) => e);
    expect(wrongOperator).toMatchObject({ code: 'operator_token_invalid', status: 401 });
    const missing = await fetch(`${baseUrl}/v1/streams/live_streams`);
    expect((await missing.json()).error.code).toBe('api_key_missing');
  });

  it("takes a signed-in member's access token on the routes that take one, as the server does", async () => {
    const jwt = (claims: object) => `eyJhbGciOiJFUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2lnbmF0dXJl`;
    const member = (accessToken: string) => new Svc({ accessToken, tenant: 'ten_1', baseUrl, maxRetries: 0 });
    const exp = Math.floor(Date.now() / 1000) + 900;
    const event = { organization: 'org_1', name: 'Jazz Night', starts_at: '2027-01-01T20:00:00Z', ends_at: '2027-01-01T23:00:00Z' };
    expect(await member(jwt({ sub: 'usr_1', tid: 'ten_1', exp })).events.create(event)).toMatchObject({ object: 'ticketed_event', name: 'Jazz Night' });
    const refusedRoute = await member(jwt({ sub: 'usr_1', exp })).streams.liveStreams.create({}).catch((e) => e);
    expect(refusedRoute).toBeInstanceOf(PermissionError);
    expect(refusedRoute).toMatchObject({ code: 'insufficient_permissions', status: 403 });
    const expired = await member(jwt({ sub: 'usr_1', exp: exp - 3600 })).events.create(event).catch((e) => e);
    expect(expired).toBeInstanceOf(AuthenticationError);
    expect(expired).toMatchObject({ code: 'invalid_access_token', status: 401, details: { reason: 'token_expired' } });
    const malformed = await member('eyJ.bm90IGpzb24.x').events.create(event).catch((e) => e);
    expect(malformed).toMatchObject({ code: 'invalid_access_token', details: { reason: 'malformed' } });
  });

  it('seeds objects that the SDK then reads, updates and lists', async () => {
    const stream = mock.seed('streams.liveStreams.retrieve', { status: 'active', metadata: { show: 'seeded' } });
    expect(stream.id).toMatch(/^ls_/);
    expect(await svc.streams.liveStreams.retrieve(stream.id)).toMatchObject({ status: 'active', metadata: { show: 'seeded' } });
    expect((await svc.streams.liveStreams.update(stream.id, { metadata: { show: 'b' } })).metadata).toEqual({ show: 'b' });
    expect((await svc.streams.liveStreams.disable(stream.id)).status).toBe('disabled');
    const page = await svc.streams.liveStreams.list({ limit: 5 });
    expect(page.data.map((s) => s.id)).toEqual([stream.id]);
  });

  it('triggers events: listed, and delivered signed to matching endpoints', async () => {
    const endpoint = await svc.webhookEndpoints.create({ url: 'https://tenant.example/hooks', enabled_events: ['streams.live_stream.*'] });
    await svc.webhookEndpoints.create({ url: 'https://other.example/hooks', enabled_events: ['access.*'] });
    const { event, deliveries } = await mock.triggerEvent('streams.live_stream.active', { id: 'ls_live' }, { deliver: true });
    expect(event).toMatchObject({ object: 'event', type: 'streams.live_stream.active', subject: 'ls_live' });
    expect(deliveries.map((d) => [d.url, d.result])).toEqual([['https://tenant.example/hooks', 204]]);
    expect(received).toHaveLength(1);
    const verified = await svc.webhooks.constructEvent(received[0]!.body, received[0]!.signature, endpoint.secret!);
    expect(verified).toMatchObject({ id: event.id, type: 'streams.live_stream.active' });
    expect((await svc.eventLog.list()).data.map((e) => e.id)).toEqual([event.id]);
    // The path also serves ticketed events (by slug); an `evt_` id is always an entry of the log.
    const entry = await svc.eventLog.retrieve(event.id);
    expect(entry.object === 'event' && entry.type).toBe('streams.live_stream.active');
  });

  it('answers a test event with its type, about the endpoint', async () => {
    const endpoint = await svc.webhookEndpoints.create({ url: 'https://tenant.example/hooks', enabled_events: ['*'] });
    const tested = await svc.webhookEndpoints.test(endpoint.id);
    expect(tested).toMatchObject({ type: 'platform.webhook_endpoint.tested', subject: endpoint.id });
  });
});
