import type { AddressInfo, Server } from 'node:net';
import { createRemoteJWKSet, customFetch as joseFetch, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectOk, signInByPhone } from './identity-fixtures';

const t = useTestServer();
let server: Server;
let origin: string;

beforeAll(async () => {
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

/** The issuer's URLs name the configured base URL; the requests go to this test's listening port. */
const toListener = (url: string | URL) => String(url).replace(t.ctx.config.baseUrl, origin);
const fetchHere = (url: string, options: RequestInit) => fetch(toListener(url), options);

describe('issuer discovery', () => {
  it('serves the OpenID Connect discovery document under the issuer, which openid-client discovers', async () => {
    const issuer = `${t.ctx.config.baseUrl}/auth/v1`;
    const config = await client.discovery(new URL(issuer), 'svc-test', undefined, client.None(), {
      execute: [client.allowInsecureRequests],
      [client.customFetch]: fetchHere,
    });
    const metadata = config.serverMetadata();
    expect(metadata).toMatchObject({
      issuer,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      token_endpoint: `${issuer}/token`,
      id_token_signing_alg_values_supported: ['ES256'],
      grant_types_supported: ['refresh_token'],
    });
  });

  it('serves the same document where RFC 8414 puts it, which openid-client finds as an OAuth 2.0 server', async () => {
    const issuer = `${t.ctx.config.baseUrl}/auth/v1`;
    const config = await client.discovery(new URL(issuer), 'svc-test', undefined, client.None(), {
      algorithm: 'oauth2',
      execute: [client.allowInsecureRequests],
      [client.customFetch]: fetchHere,
    });
    expect(config.serverMetadata().issuer).toBe(issuer);
    const oidc = expectOk(await t.http().get('/auth/v1/.well-known/openid-configuration'));
    expect(expectOk(await t.http().get('/.well-known/oauth-authorization-server/auth/v1'))).toEqual(oidc);
  });

  it('leads jose from the discovered jwks_uri to keys that verify a signed-in person\'s access token', async () => {
    const tenant = await t.tenant();
    const session = await signInByPhone(t, tenant);
    const discovered = expectOk(await t.http().get('/auth/v1/.well-known/openid-configuration')) as { issuer: string; jwks_uri: string };
    const keys = createRemoteJWKSet(new URL(discovered.jwks_uri), { [joseFetch]: fetchHere });
    const { payload } = await jwtVerify(session.access_token, keys, { issuer: discovered.issuer, audience: 'svc', algorithms: ['ES256'] });
    expect(payload.sub).toBe(session.user.id);
  });
});
