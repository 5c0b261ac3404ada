import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { CredentialCache } from '../../src/core/auth/credential-cache';
import { CustomerTokenKeyCache } from '../../src/core/auth/customer-token-keys';
import { NotificationListener } from '../../src/core/notify';
import { bearer } from '../harness';
import {
  browser,
  useAccessTestServer,
  createTokenKey,
  expectError,
  expectStatus,
  grant,
  now,
  server,
  signToken,
  tenant,
  viewerSetup,
} from './access-fixtures';

const t = useAccessTestServer();

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('customer token keys', () => {
  it('creates a key with a ctk_ id and a cts_ secret shown once, sealed at rest', async () => {
    const { keys } = await tenant(t);
    const key = await createTokenKey(t, keys.test.secret, 'checkout');
    expect(key).toMatchObject({ object: 'customer_token_key', name: 'checkout', status: 'active', livemode: false, revoked_at: null });
    expect(key.id).toMatch(/^ctk_/);
    expect(key.secret).toMatch(/^cts_[0-9A-Za-z]{48}$/);
    const row = await t.ctx.db.selectFrom('customer_token_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(key.secret.slice(4));
    const list = expectStatus(await server(t, keys.test.secret).get('/v1/access/customer_token_keys'), 200);
    expect(list.data.map((k: { id: string }) => k.id)).toEqual([key.id]);
    expect(list.data[0]).not.toHaveProperty('secret');
  });

  it('takes a secret key only', async () => {
    const { keys } = await tenant(t);
    const restricted = expectStatus(
      await server(t, keys.test.secret).post('/v1/keys', { type: 'restricted', scopes: ['access:write', 'streams:write'] }),
      201,
    ).data.secret;
    expectError(await server(t, restricted).post('/v1/access/customer_token_keys', { name: 'x' }), 403, 'insufficient_permissions');
    const viaPublishable = await t.http().post('/v1/access/customer_token_keys').set('Svc-Publishable-Key', keys.test.publishable).send({ name: 'x' });
    expectError(viaPublishable, 403, 'insufficient_permissions');
    expectError(await server(t, keys.test.secret).post('/v1/access/customer_token_keys', {}), 422, 'validation_failed');
  });

  it('keeps keys per environment', async () => {
    const { keys } = await tenant(t);
    const live = await createTokenKey(t, keys.live.secret);
    expect(live.livemode).toBe(true);
    expect(expectStatus(await server(t, keys.test.secret).get('/v1/access/customer_token_keys'), 200).data).toEqual([]);
    expectError(await server(t, keys.test.secret).delete(`/v1/access/customer_token_keys/${live.id}`), 404, 'resource_not_found');
  });
});

describe('customer token verification', () => {
  let setup: Awaited<ReturnType<typeof viewerSetup>>;
  beforeAll(async () => {
    setup = await viewerSetup(t);
    await grant(t, setup.sk, { customer: 'viewer-1', resource: { type: 'ls', id: setup.stream.id } });
  });

  const openWith = (token: string | undefined, pk = setup.pk) =>
    browser(t, pk, token).post('/v1/access/sessions', { resource: setup.stream.id, device_id: 'laptop' });

  it('opens a session for the token\'s sub', async () => {
    const session = expectStatus(await openWith(await signToken(t, setup.key)), 201).data;
    expect(session.customer).toBe('viewer-1');
  });

  const nowS = () => Math.floor(now(t).getTime() / 1000);

  const cases: Array<[string, string, () => Promise<string | undefined>]> = [
    ['missing', 'no token', async () => undefined],
    ['malformed', 'two parts', async () => 'abc.def'],
    ['malformed', 'garbage header', async () => 'not-json.e30.c2ln'],
    ['malformed', 'alg none', async () => `${b64({ alg: 'none', kid: setup.key.id })}.${b64({ sub: 'viewer-1', aud: 'svc', iat: nowS(), exp: nowS() + 60 })}.`],
    [
      'malformed',
      'alg none with a signature part',
      async () => `${b64({ alg: 'none', kid: setup.key.id })}.${b64({ sub: 'viewer-1', aud: 'svc', iat: nowS(), exp: nowS() + 60 })}.AAAA`,
    ],
    [
      'malformed',
      'RS256',
      async () => {
        const { privateKey } = await generateKeyPair('RS256');
        return new SignJWT({ sub: 'viewer-1', aud: 'svc' })
          .setProtectedHeader({ alg: 'RS256', kid: setup.key.id })
          .setIssuedAt(nowS())
          .setExpirationTime(nowS() + 60)
          .sign(privateKey);
      },
    ],
    ['malformed', 'HS512', async () => signToken(t, setup.key, { alg: 'HS512' })],
    ['malformed', 'no kid', async () => signToken(t, setup.key, { kid: null })],
    ['unknown_key', 'kid of no key', async () => signToken(t, setup.key, { kid: 'ctk_01jdzzzzzzzzzzzzzzzzzzzzzz' })],
    ['unknown_key', 'kid that is not a key id', async () => signToken(t, setup.key, { kid: 'whatever' })],
    ['invalid_signature', 'another secret', async () => signToken(t, { id: setup.key.id, secret: 'cts_wrong' })],
    ['not_yet_valid', 'iat ahead beyond the skew', async () => signToken(t, setup.key, { iat: nowS() + 120, exp: nowS() + 300 })],
    ['not_yet_valid', 'nbf ahead beyond the skew', async () => signToken(t, setup.key, { nbf: nowS() + 120 })],
    ['token_expired', 'exp passed beyond the skew', async () => signToken(t, setup.key, { iat: nowS() - 600, exp: nowS() - 61 })],
    ['invalid_claims', 'aud other than svc', async () => signToken(t, setup.key, { aud: 'other' })],
    ['invalid_claims', 'no aud', async () => signToken(t, setup.key, { aud: null })],
    ['invalid_claims', 'aud array with another audience', async () => signToken(t, setup.key, { aud: ['svc', 'evil'] })],
    ['invalid_claims', 'empty aud array', async () => signToken(t, setup.key, { aud: [] })],
    ['invalid_claims', 'exp before iat', async () => signToken(t, setup.key, { iat: nowS(), exp: nowS() - 10 })],
    ['invalid_claims', 'exp equal to iat', async () => signToken(t, setup.key, { iat: nowS() + 30, exp: nowS() + 30 })],
    ['invalid_claims', 'no sub', async () => signToken(t, setup.key, { sub: null })],
    ['invalid_claims', 'empty sub', async () => signToken(t, setup.key, { sub: '' })],
    ['invalid_claims', 'sub of 256 characters', async () => signToken(t, setup.key, { sub: 'x'.repeat(256) })],
    ['invalid_claims', 'numeric sub', async () => signToken(t, setup.key, { sub: 42 })],
    ['invalid_claims', 'sub with a lone surrogate', async () => signToken(t, setup.key, { sub: 'viewer-\ud800' })],
    ['invalid_claims', 'no iat', async () => signToken(t, setup.key, { iat: null })],
    ['invalid_claims', 'no exp', async () => signToken(t, setup.key, { exp: null })],
    ['invalid_claims', 'lifetime over 15 minutes', async () => signToken(t, setup.key, { iat: nowS() - 300, exp: nowS() + 601 })],
    ['invalid_claims', 'exp over 15 minutes ahead', async () => signToken(t, setup.key, { iat: nowS() + 50, exp: nowS() + 962 })],
    ['invalid_claims', 'ctry not a country code', async () => signToken(t, setup.key, { ctry: 'Kenya' })],
  ];

  it.each(cases)('refuses %s: %s', async (reason, _label, make) => {
    const res = await openWith(await make());
    expectError(res, 401, 'invalid_customer_token', { reason: reason });
    expect(res.body.error.type).toBe('authentication_error');
  });

  it('refuses an Authorization header that is not a Bearer token as malformed', async () => {
    const res = await t.http().post('/v1/access/sessions').set('Svc-Publishable-Key', setup.pk).set('authorization', 'Basic abc').send({});
    expectError(res, 401, 'invalid_customer_token', { reason: 'malformed' });
  });

  it('takes the 60 seconds of skew and a 15-minute token', async () => {
    const skewed = await signToken(t, setup.key, { iat: nowS() + 55, exp: nowS() + 900 });
    expectStatus(await openWith(skewed), 201);
    const justExpired = await signToken(t, setup.key, { iat: nowS() - 600, exp: nowS() - 30 });
    expectStatus(await openWith(justExpired), 201);
    const fullLifetime = await signToken(t, setup.key, { iat: nowS(), exp: nowS() + 900 });
    expectStatus(await openWith(fullLifetime), 201);
    const audArray = await signToken(t, setup.key, { aud: ['svc'] });
    expectStatus(await openWith(audArray), 201);
  });

  it('refuses a token of another tenant and a test-mode token against a live publishable key', async () => {
    const other = await viewerSetup(t);
    expectError(await openWith(other.token), 401, 'invalid_customer_token', { reason: 'unknown_key' });
    expectError(await openWith(setup.token, setup.tenant.keys.live.publishable), 401, 'invalid_customer_token', { reason: 'unknown_key' });
  });

  it('refuses a customer token sent without the publishable key header', async () => {
    // The token alone is not an API key; a publishable key as Bearer leaves no room for the token.
    expectError(await t.http().post('/v1/access/sessions').set(bearer(setup.token)).send({}), 401, 'api_key_invalid');
    const res = await t.http().post('/v1/access/sessions').set(bearer(setup.pk)).send({ resource: setup.stream.id, device_id: 'd' });
    expectError(res, 401, 'invalid_customer_token', { reason: 'missing' });
  });

  it('refuses a publishable key on routes that need a secret key, token or not', async () => {
    for (const [method, path] of [
      ['post', '/v1/access/entitlements'],
      ['get', '/v1/access/entitlements'],
      ['post', '/v1/access/check'],
    ] as const) {
      const res = await t.http()[method](path).set('Svc-Publishable-Key', setup.pk).set(bearer(setup.token)).send({});
      expectError(res, 403, 'insufficient_permissions');
    }
  });

  it('does not take the key secret as a JWK of another type', async () => {
    // A token signed with the secret as an RSA "public key" trick is still just an HS256 signature check.
    const { publicKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = await exportJWK(publicKey);
    const forged = await new SignJWT({ sub: 'viewer-1', aud: 'svc' })
      .setProtectedHeader({ alg: 'HS256', kid: setup.key.id })
      .setIssuedAt(nowS())
      .setExpirationTime(nowS() + 60)
      .sign(new TextEncoder().encode(JSON.stringify(jwk)));
    expectError(await openWith(forged), 401, 'invalid_customer_token', { reason: 'invalid_signature' });
  });
});

describe('customer token key revocation', () => {
  it('stops new sessions at once, on this process and on another one on the same database', async () => {
    const setup = await viewerSetup(t);
    await grant(t, setup.sk, { customer: 'viewer-1', resource: { type: 'ls', id: setup.stream.id } });
    // A second app with its own caches and LISTEN connection stands in for another server process.
    const listener = new NotificationListener(t.databaseUrl, t.ctx.log);
    const otherCtx = { ...t.ctx, credentials: new CredentialCache(listener), customerTokenKeys: new CustomerTokenKeyCache(listener) };
    await listener.start();
    try {
      const otherApp = createApp(otherCtx);
      const openOn = (app: typeof otherApp, device: string) =>
        request(app)
          .post('/v1/access/sessions')
          .set('Svc-Publishable-Key', setup.pk)
          .set(bearer(setup.token))
          .send({ resource: setup.stream.id, device_id: device });
      expectStatus(await openOn(t.app, 'a'), 201);
      expectStatus(await openOn(otherApp, 'b'), 201);

      const revoked = expectStatus(await server(t, setup.sk).delete(`/v1/access/customer_token_keys/${setup.key.id}`), 200).data;
      expect(revoked).toMatchObject({ id: setup.key.id, status: 'revoked' });
      expect(revoked.revoked_at).toEqual(expect.any(String));
      expectError(await openOn(t.app, 'c'), 401, 'invalid_customer_token', { reason: 'key_revoked' });
      const deadline = Date.now() + 2000;
      let res = await openOn(otherApp, 'd');
      while (res.status === 201 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        res = await openOn(otherApp, 'd');
      }
      expectError(res, 401, 'invalid_customer_token', { reason: 'key_revoked' });
      // Revoking again answers the revoked key.
      expect(expectStatus(await server(t, setup.sk).delete(`/v1/access/customer_token_keys/${setup.key.id}`), 200).data.status).toBe('revoked');
    } finally {
      await listener.stop();
    }
  });

  it('keeps a second key working through a rotation', async () => {
    const setup = await viewerSetup(t);
    await grant(t, setup.sk, { customer: 'viewer-1', resource: { type: 'ls', id: setup.stream.id } });
    const second = await createTokenKey(t, setup.sk, 'next');
    expectStatus(await server(t, setup.sk).delete(`/v1/access/customer_token_keys/${setup.key.id}`), 200);
    const res = await browser(t, setup.pk, await signToken(t, second)).post('/v1/access/sessions', { resource: setup.stream.id, device_id: 'x' });
    expectStatus(res, 201);
  });
});
