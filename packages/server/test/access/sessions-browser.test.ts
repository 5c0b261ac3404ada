import { describe, expect, it } from 'vitest';
import {
  browser,
  useAccessTestServer,
  entitled,
  expectError,
  expectStatus,
  grant,
  server,
  sessionRow,
  signToken,
} from './access-fixtures';

const t = useAccessTestServer();

describe('browsers (publishable key and customer token)', () => {
  it('opens for the token\'s sub, with the domain from Origin and the country from ctry', async () => {
    const e = await entitled(t, { allowed_countries: ['KE'], allowed_domains: ['watch.example.com'] });
    const body = { resource: e.stream.id, device_id: 'browser' };
    const kenya = await signToken(t, e.key, { ctry: 'KE' });
    const uganda = await signToken(t, e.key, { ctry: 'UG' });
    const session = expectStatus(await browser(t, e.pk, kenya, 'https://watch.example.com').post('/v1/access/sessions', body), 201).data;
    expect(session.customer).toBe('viewer-1');
    const tokenKey = (await sessionRow(t, session.id)).token_key_id;
    expect(tokenKey).toBe(e.key.id);
    expectError(await browser(t, e.pk, kenya, 'https://www.watch.example.com').post('/v1/access/sessions', body), 403, 'access_denied', { reason: 'domain_not_allowed' });
    expectError(await browser(t, e.pk, kenya).post('/v1/access/sessions', body), 403, 'access_denied', { reason: 'domain_not_allowed' });
    expectError(await browser(t, e.pk, uganda, 'https://watch.example.com').post('/v1/access/sessions', body), 403, 'access_denied', { reason: 'country_not_allowed' });
    expectError(await browser(t, e.pk, e.token, 'https://watch.example.com').post('/v1/access/sessions', body), 403, 'access_denied', { reason: 'country_not_allowed' });
    // A browser cannot claim a country or a domain in the body.
    const claimed = await browser(t, e.pk, uganda, 'https://watch.example.com').post('/v1/access/sessions', { ...body, country: 'KE' });
    expectError(claimed, 403, 'access_denied', { reason: 'country_not_allowed' });
  });

  it('opens only for the token\'s own customer', async () => {
    const e = await entitled(t);
    const stranger = await signToken(t, e.key, { sub: 'viewer-2' });
    expectError(await browser(t, e.pk, stranger).post('/v1/access/sessions', { resource: e.stream.id, device_id: 'd' }), 403, 'access_denied', { reason: 'no_entitlement' });
  });
});

describe('idempotency keys from browsers', () => {
  it('keeps each viewer\'s keys apart, so one viewer never replays another\'s session', async () => {
    const e = await entitled(t);
    await grant(t, e.sk, { customer: 'viewer-2', resource: { type: 'ls', id: e.stream.id } });
    const first = await signToken(t, e.key, { sub: 'viewer-1' });
    const second = await signToken(t, e.key, { sub: 'viewer-2' });
    const body = { resource: e.stream.id, device_id: 'same-device-name' };
    const a = await browser(t, e.pk, first).post('/v1/access/sessions', body).set('Idempotency-Key', 'shared-key');
    const b = await browser(t, e.pk, second).post('/v1/access/sessions', body).set('Idempotency-Key', 'shared-key');
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body.data.id).not.toBe(a.body.data.id);
    expect(b.body.data.customer).toBe('viewer-2');
    const again = await browser(t, e.pk, first).post('/v1/access/sessions', body).set('Idempotency-Key', 'shared-key');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.id).toBe(a.body.data.id);
  });
});

describe('CORS', () => {
  const ORIGIN = 'https://watch.example.com';
  const preflight = (path: string, method: string) =>
    t.http().options(path).set('Origin', ORIGIN).set('Access-Control-Request-Method', method).set('Access-Control-Request-Headers', 'svc-publishable-key, authorization, content-type');

  it.each([
    ['/v1/access/sessions', 'POST'],
    ['/v1/streams/playback_tokens', 'POST'],
    ['/v1/access/sessions/as_123/heartbeat', 'POST'],
    ['/v1/access/sessions/as_123', 'DELETE'],
  ])('answers the preflight of %s', async (path, method) => {
    const res = await preflight(path, method);
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers['access-control-allow-methods']).toContain(method);
    for (const h of ['Svc-Publishable-Key', 'Authorization', 'Idempotency-Key', 'Content-Type']) {
      expect(res.headers['access-control-allow-headers']).toContain(h);
    }
    expect(res.headers.vary).toContain('Origin');
  });

  it('puts Access-Control-Allow-Origin on answers and errors of publishable routes', async () => {
    const e = await entitled(t);
    const ok = await browser(t, e.pk, e.token, ORIGIN).post('/v1/access/sessions', { resource: e.stream.id, device_id: 'd' });
    expect(ok.status).toBe(201);
    expect(ok.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(ok.headers['access-control-expose-headers']).toContain('Request-Id');
    const refused = await browser(t, e.pk, 'bad', ORIGIN).post('/v1/access/sessions', { resource: e.stream.id, device_id: 'd' });
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(ORIGIN);
    const badJson = await t.http().post('/v1/access/sessions').set('Origin', ORIGIN).set('Content-Type', 'application/json').send('{');
    expect(badJson.status).toBe(400);
    expect(badJson.headers['access-control-allow-origin']).toBe(ORIGIN);
  });

  it('advertises no CORS on routes that need a secret key', async () => {
    const e = await entitled(t);
    // Not live streams: their reads take members' tokens too (the console), whose browser needs CORS there.
    for (const [path, method] of [
      ['/v1/access/entitlements', 'POST'],
      ['/v1/access/check', 'POST'],
      ['/v1/access/customer_token_keys', 'POST'],
    ]) {
      const res = await preflight(path!, method!);
      expect(res.status).not.toBe(204);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    const res = await server(t, e.sk).post('/v1/access/check', { customer: 'viewer-1', resource: { type: 'ls', id: e.stream.id } }, { Origin: ORIGIN });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
