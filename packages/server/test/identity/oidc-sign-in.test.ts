import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectOk, type Tenant } from './identity-fixtures';

/** A real OpenID provider (oidc-provider) on loopback; the whole sign-in runs over HTTP. */
const BASE_URL = 'http://127.0.0.1:4999';
const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000', PUBLIC_BASE_URL: BASE_URL });
const CLIENT_SECRET = 'provider-client-secret-0123456789';
let issuer: string;
let server: Server;

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const provider = new Provider(issuer, {
    clients: [
      { client_id: 'svc', client_secret: CLIENT_SECRET, redirect_uris: [`${BASE_URL}/auth/v1/callback`], response_types: ['code'], grant_types: ['authorization_code'] },
    ],
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, email: `${id}@example.test`, email_verified: !id.startsWith('unverified') }) }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['test-cookie-key'] },
  });
  server.on('request', provider.callback());
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Follows the provider's redirects and logs in as `account` on its interaction pages; answers our callback URL. */
async function loginAtProvider(authorizeUrl: string, account: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(authorizeUrl);
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), ...(body && { 'content-type': 'application/x-www-form-urlencoded' }) },
      body,
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, value] = pair!.split('=');
      jar.set(name!, value ?? '');
    }
    body = undefined;
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url);
      if (url.origin === BASE_URL) return url;
      continue;
    }
    const html = await res.text();
    expect(res.status, html).toBe(200);
    body = html.includes('value="login"') ? `prompt=login&login=${account}&password=x` : 'prompt=consent';
  }
  throw new Error('the provider did not redirect back');
}

async function setup(tenant: Tenant) {
  const sk = bearer(tenant.keys.test.secret);
  const put = expectOk(await t.http().put('/v1/identity/providers/acme').set(sk).send({ issuer, client_id: 'svc', client_secret: CLIENT_SECRET }));
  expect(put.data).toMatchObject({ object: 'identity_provider', name: 'acme', issuer, client_id: 'svc', scopes: ['openid', 'email', 'profile'] });
  expect(JSON.stringify(put)).not.toContain(CLIENT_SECRET);
  expectOk(await t.http().patch('/v1/identity/settings').set(sk).send({ redirect_urls: ['https://app.example.test/'] }));
}

const authorize = (tenant: Tenant, extra: Record<string, string> = {}) =>
  t.http().get('/auth/v1/authorize').query({ provider: 'acme', redirect_to: 'https://app.example.test/done', publishable_key: tenant.keys.test.publishable, ...extra });

describe('OpenID Connect sign-in', () => {
  it('redirects with PKCE, state and nonce, verifies the answer, signs in and redirects with the session', async () => {
    const tenant = await t.tenant();
    await setup(tenant);
    const started = await authorize(tenant);
    expect(started.status, JSON.stringify(started.body)).toBe(302);
    const location = new URL(started.headers.location);
    expect(location.origin).toBe(issuer);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    for (const p of ['code_challenge', 'state', 'nonce']) expect(location.searchParams.get(p)).toBeTruthy();
    expect(location.searchParams.get('redirect_uri')).toBe(`${BASE_URL}/auth/v1/callback`);

    const callback = await loginAtProvider(started.headers.location, 'amani');
    const done = await t.http().get(`${callback.pathname}${callback.search}`);
    expect(done.status, done.text).toBe(303);
    const target = new URL(done.headers.location);
    expect(`${target.origin}${target.pathname}`).toBe('https://app.example.test/done');
    const fragment = new URLSearchParams(target.hash.slice(1));
    const me = expectOk(await t.http().get('/auth/v1/user').set(bearer(fragment.get('access_token')!))).data;
    expect(me).toMatchObject({ email: 'amani@example.test', tenant: tenant.tenant.id, livemode: false });

    // The answer is spent: replaying the callback is refused.
    const replay = expectError(await t.http().get(`${callback.pathname}${callback.search}`), 400, 'oidc_login_invalid');
    expect(replay.details.reason).toBe('unknown_state');
  });

  it('refuses a forged state, a tampered code, and a person without a verified email', async () => {
    const tenant = await t.tenant();
    await setup(tenant);
    expect(expectError(await t.http().get('/auth/v1/callback').query({ code: 'x', state: 'forged' }), 400, 'oidc_login_invalid').details.reason).toBe('unknown_state');

    const started = await authorize(tenant);
    const callback = await loginAtProvider(started.headers.location, 'kamau');
    callback.searchParams.set('code', 'tampered-code');
    expect(expectError(await t.http().get(`${callback.pathname}${callback.search}`), 400, 'oidc_login_invalid').details.reason).toBe('provider_checks_failed');

    const again = await authorize(tenant);
    const unverified = await loginAtProvider(again.headers.location, 'unverified-wambui');
    expect(expectError(await t.http().get(`${unverified.pathname}${unverified.search}`), 400, 'oidc_login_invalid').details.reason).toBe('no_verified_contact');
  });

  it('answers 404 for an unknown provider, names the tenant by code in live mode, and lists providers', async () => {
    const tenant = await t.tenant();
    await setup(tenant);
    expectError(await authorize(tenant, { provider: 'nobody' }), 404, 'resource_not_found');
    // The live environment has its own providers: none yet.
    expectError(await t.http().get('/auth/v1/authorize').query({ provider: 'acme', tenant: tenant.tenant.code }), 404, 'resource_not_found');
    expectError(await t.http().get('/auth/v1/authorize').query({ provider: 'acme' }), 400, 'invalid_request');
    const list = expectOk(await t.http().get('/v1/identity/providers').set(bearer(tenant.keys.test.secret))).data;
    expect(list.map((p: { name: string }) => p.name)).toEqual(['acme']);
    // A live-mode provider must use https (and a public address: oidc-outbound.test.ts).
    const live = await t.http().put('/v1/identity/providers/acme').set(bearer(tenant.keys.live.secret)).send({ issuer, client_id: 'svc', client_secret: 'x' });
    expect(expectError(live, 422, 'webhook_url_not_allowed')).toMatchObject({ param: 'issuer', details: { reason: 'https_required' } });
  });
});
