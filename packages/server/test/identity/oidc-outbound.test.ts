import { createServer, type Server } from 'node:http';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostResolver } from '../../src/core/outbound/url-policy';
import { providerFetch } from '../../src/modules/identity/oidc/oidc-outbound';
import { bearer, useTestServer } from '../harness';
import { expectError, expectOk, type Tenant } from './identity-fixtures';

/** The provider's requests follow the webhook rules: checked at `PUT`, again at every request of a sign-in. */
const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

/** DNS as a table; anything else does not resolve. */
const dns =
  (table: Record<string, string[]>): HostResolver =>
  async (host) =>
    (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

/** A provider on loopback whose discovery document names `tokenEndpoint`; it counts the requests it gets. */
let server: Server;
let issuer: string;
let tokenEndpoint = '';
const requests: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.headers.host}${req.url}`);
    if (req.url === '/.well-known/openid-configuration') {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: tokenEndpoint,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['ES256'],
        }),
      );
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const put = (key: string, issuerUrl: string) =>
  t.http().put('/v1/identity/providers/acme').set(bearer(key)).send({ issuer: issuerUrl, client_id: 'svc', client_secret: 'provider-secret' });

describe('the issuer at PUT', () => {
  it.each([
    ['https://127.0.0.1/', 'loopback_address'],
    ['https://0x7f000001/', 'loopback_address'],
    ['https://[::1]/', 'loopback_address'],
    ['https://localhost/', 'loopback_address'],
    ['https://10.0.0.5/', 'private_address'],
    ['https://192.168.1.1/', 'private_address'],
    ['https://169.254.169.254/', 'private_address'],
    ['https://[fd00::1]/', 'private_address'],
    ['https://idp.internal.test/', 'private_address'],
    ['http://idp.example.com/', 'https_required'],
    ['https://nxdomain.example.com/', 'unresolvable_host'],
  ])('live mode refuses %s (%s)', async (url, reason) => {
    t.ctx.resolveHost = dns({ localhost: ['127.0.0.1', '::1'], 'idp.internal.test': ['10.1.2.3'], 'idp.example.com': ['93.184.216.34'] });
    const { keys } = await t.tenant();
    const error = expectError(await put(keys.live.secret, url), 422, 'webhook_url_not_allowed');
    expect(error).toMatchObject({ param: 'issuer', details: { reason } });
    // Nothing was stored.
    expect(expectOk(await t.http().get('/v1/identity/providers').set(bearer(keys.live.secret))).data).toEqual([]);
  });

  it('live mode takes https to a public address; test mode takes loopback http but no private network', async () => {
    t.ctx.resolveHost = dns({ 'idp.example.com': ['93.184.216.34'], 'idp.internal.test': ['10.1.2.3'] });
    const { keys } = await t.tenant();
    expectOk(await put(keys.live.secret, 'https://idp.example.com/'));
    expectOk(await put(keys.test.secret, issuer));
    expect(expectError(await put(keys.test.secret, 'http://idp.internal.test/'), 422, 'webhook_url_not_allowed').details.reason).toBe('private_address');
    expect(expectError(await put(keys.test.secret, 'http://169.254.169.254/'), 422, 'webhook_url_not_allowed').details.reason).toBe('private_address');
  });
});

describe('at sign-in', () => {
  const authorizeTest = (tenant: Tenant) => t.http().get('/auth/v1/authorize').query({ provider: 'acme', publishable_key: tenant.keys.test.publishable });

  it('checks the issuer again: a name that now resolves to loopback is refused in live mode, with no connection', async () => {
    const port = (server.address() as { port: number }).port;
    t.ctx.resolveHost = dns({ 'rebind.example.com': ['93.184.216.34'] });
    const tenant = await t.tenant();
    expectOk(await put(tenant.keys.live.secret, `https://rebind.example.com:${port}/`));
    t.ctx.resolveHost = dns({ 'rebind.example.com': ['127.0.0.1'] });
    const before = requests.length;
    const res = await t.http().get('/auth/v1/authorize').query({ provider: 'acme', tenant: tenant.tenant.code });
    const error = expectError(res, 422, 'webhook_url_not_allowed');
    expect(error).toMatchObject({ param: 'issuer', details: { reason: 'loopback_address' } });
    expect(error.message).not.toContain('127.0.0.1');
    expect(requests.length).toBe(before);
  });

  it('refuses a token endpoint on a private address named by the discovery document', async () => {
    t.ctx.resolveHost = dns({ 'tokens.internal.test': ['10.0.0.7'] });
    tokenEndpoint = 'http://tokens.internal.test/token';
    const tenant = await t.tenant();
    expectOk(await put(tenant.keys.test.secret, issuer));
    const started = await authorizeTest(tenant);
    expect(started.status, JSON.stringify(started.body)).toBe(302);
    const state = new URL(started.headers.location).searchParams.get('state')!;
    const res = await t.http().get('/auth/v1/callback').query({ code: 'provider-code', state });
    expect(expectError(res, 422, 'webhook_url_not_allowed').details.reason).toBe('private_address');
    expect(requests.filter((r) => r.includes('/token'))).toEqual([]);
  });

  it('in live mode refuses token endpoints on loopback or private addresses before connecting', async () => {
    const resolveHost = dns({ 'idp.example.com': ['93.184.216.34'], 'tokens.example.com': ['10.0.0.7'], 'v6.example.com': ['::ffff:127.0.0.1'] });
    for (const [endpoint, reason] of [
      ['https://127.0.0.1/token', 'loopback_address'],
      ['https://tokens.example.com/token', 'private_address'],
      ['https://v6.example.com/token', 'loopback_address'],
    ] as const) {
      const outbound = providerFetch({ resolveHost }, true);
      const config = new client.Configuration({ issuer: 'https://idp.example.com', token_endpoint: endpoint }, 'svc', 'provider-secret');
      config[client.customFetch] = outbound.fetch;
      const grant = client.authorizationCodeGrant(config, new URL('https://app.example.test/cb?code=c&state=s'), {
        expectedState: 's',
        pkceCodeVerifier: client.randomPKCECodeVerifier(),
      });
      await expect(grant).rejects.toThrow();
      expect(outbound.refused()?.reason).toBe(reason);
    }
  });

  it('connects to the address it checked, never resolving the name again', async () => {
    const port = (server.address() as { port: number }).port;
    // `pinned.invalid` exists only in the injected DNS: a second, system lookup would fail.
    const outbound = providerFetch({ resolveHost: dns({ 'pinned.invalid': ['127.0.0.1'] }) }, false);
    const res = await outbound.fetch(`http://pinned.invalid:${port}/.well-known/openid-configuration`, { method: 'GET', headers: {}, body: undefined, redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { issuer: string }).issuer).toBe(issuer);
    expect(requests.at(-1)).toBe(`GET pinned.invalid:${port}/.well-known/openid-configuration`);
  });
});
