import { SignJWT, decodeProtectedHeader, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { rotateSigningKeys } from '../../src/modules/identity/auth/signing-keys';
import { bearer, useTestServer } from '../harness';
import { advance, expectError, expectOk, signInByPhone } from './identity-fixtures';

// Refreshes and key reads are public routes, limited per client address; these tests make many quickly.
const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '1000' });
const refresh = (token: string) => t.http().post('/auth/v1/token').send({ grant_type: 'refresh_token', refresh_token: token });
const me = (token: string) => t.http().get('/auth/v1/user').set(bearer(token));

describe('sessions', () => {
  it('answers the person, their customer and memberships', async () => {
    const tenant = await t.tenant();
    const s = await signInByPhone(t, tenant);
    const user = expectOk(await me(s.access_token)).data;
    expect(user).toMatchObject({ id: s.user.id, customer: s.user.customer, tenant: tenant.tenant.id, livemode: false, memberships: [] });
  });

  it('rotates the refresh token on every use and answers the active one to its parent within 10 s', async () => {
    const tenant = await t.tenant();
    const s = await signInByPhone(t, tenant);
    const first = expectOk(await refresh(s.refresh_token)).data;
    expect(first.refresh_token).not.toBe(s.refresh_token);
    expect(first.user).toEqual(s.user);
    // A lost answer or a second tab: the parent, within 10 s, answers the same active token.
    const again = expectOk(await refresh(s.refresh_token)).data;
    expect(again.refresh_token).toBe(first.refresh_token);
    expectOk(await me(again.access_token));
    const second = expectOk(await refresh(first.refresh_token)).data;
    expectOk(await me(second.access_token));
  });

  it('revokes the whole session when a used token comes back after the grace', async () => {
    const tenant = await t.tenant();
    const s = await signInByPhone(t, tenant);
    const next = expectOk(await refresh(s.refresh_token)).data;
    advance(t, 11_000);
    expectError(await refresh(s.refresh_token), 401, 'refresh_token_already_used');
    expectError(await refresh(next.refresh_token), 401, 'refresh_token_invalid');
    const refused = expectError(await me(next.access_token), 401, 'invalid_access_token');
    expect(refused.details.reason).toBe('session_ended');
  });

  it('revokes the session when a grandparent token comes back, even within 10 s', async () => {
    const tenant = await t.tenant();
    const s = await signInByPhone(t, tenant);
    const a = expectOk(await refresh(s.refresh_token)).data;
    expectOk(await refresh(a.refresh_token));
    expectError(await refresh(s.refresh_token), 401, 'refresh_token_already_used');
  });

  it('ends a session after 30 days idle and after 90 days in all', async () => {
    const tenant = await t.tenant();
    const idle = await signInByPhone(t, tenant);
    advance(t, 30 * 86400_000 + 1000);
    expectError(await refresh(idle.refresh_token), 401, 'refresh_token_invalid');

    const s = await signInByPhone(t, tenant);
    let token = s.refresh_token;
    for (let i = 0; i < 3; i++) {
      advance(t, 29 * 86400_000);
      token = expectOk(await refresh(token)).data.refresh_token;
    }
    advance(t, 5 * 86400_000);
    expectError(await refresh(token), 401, 'refresh_token_invalid');
    expectError(await refresh('not-a-token'), 401, 'refresh_token_invalid');
  });

  it('refuses an access token at once after logout; global logout ends every session of the person here', async () => {
    const tenant = await t.tenant();
    const s1 = await signInByPhone(t, tenant);
    advance(t, 61_000);
    const s2 = await signInByPhone(t, tenant, s1.user.phone!);
    expectOk(await me(s1.access_token));
    expect((await t.http().post('/auth/v1/logout').set(bearer(s1.access_token)).send({})).status).toBe(204);
    expectError(await me(s1.access_token), 401, 'invalid_access_token');
    expectError(await refresh(s1.refresh_token), 401, 'refresh_token_invalid');
    expectOk(await me(s2.access_token));

    advance(t, 61_000);
    const s3 = await signInByPhone(t, tenant, s1.user.phone!);
    expect((await t.http().post('/auth/v1/logout').set(bearer(s3.access_token)).send({ scope: 'global' })).status).toBe(204);
    expectError(await me(s2.access_token), 401, 'invalid_access_token');
    expectError(await me(s3.access_token), 401, 'invalid_access_token');
  });

  it('refuses tokens signed with alg none, HS256, another key, or for another audience, and expired ones', async () => {
    const tenant = await t.tenant();
    const s = await signInByPhone(t, tenant);
    const [, payloadPart] = s.access_token.split('.');
    const payload = JSON.parse(Buffer.from(payloadPart!, 'base64url').toString());
    const { kid } = decodeProtectedHeader(s.access_token);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid })).toString('base64url')}.${payloadPart}.`;
    expect((expectError(await me(none), 401, 'invalid_access_token')).details.reason).toBe('malformed');
    const jwks = expectOk(await t.http().get('/.well-known/jwks.json'));
    const hs = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid }).sign(new TextEncoder().encode(JSON.stringify(jwks.keys[0])));
    expect((expectError(await me(hs), 401, 'invalid_access_token')).details.reason).toBe('malformed');
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid }).sign(privateKey);
    expect((expectError(await me(forged), 401, 'invalid_access_token')).details.reason).toBe('invalid_signature');
    const keyRow = await t.ctx.db.selectFrom('identity_signing_keys').select('private_sealed').where('id', '=', kid!).executeTakeFirstOrThrow();
    const { importJWK } = await import('jose');
    const real = await importJWK(JSON.parse(t.ctx.secrets.decrypt(keyRow.private_sealed, `${kid}:identity_signing_key`)), 'ES256');
    const otherAud = await new SignJWT({ ...payload, aud: 'someone-else' }).setProtectedHeader({ alg: 'ES256', kid }).sign(real);
    expect((expectError(await me(otherAud), 401, 'invalid_access_token')).details.reason).toBe('invalid_claims');
    expectOk(await me(await new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid }).sign(real)));
    advance(t, 16 * 60_000);
    expect((expectError(await me(s.access_token), 401, 'invalid_access_token')).details.reason).toBe('token_expired');
  });

  it('rotates signing keys without downtime: standby to current to previous to revoked', async () => {
    const tenant = await t.tenant();
    const s = await signInByPhone(t, tenant);
    const before = expectOk(await t.http().get('/.well-known/jwks.json')).keys.map((k: { kid: string }) => k.kid);
    expect(before).toHaveLength(2);
    const rotated = expectOk(await t.http().post('/v1/operator/identity/signing_keys/rotate').set(t.operator));
    const current = decodeProtectedHeader(s.access_token).kid === before[0] ? before[1] : before[0];
    expect(rotated.keys.map((k: { kid: string }) => k.kid)).toEqual(expect.arrayContaining(before));
    expect(rotated.keys).toHaveLength(3);
    // Tokens of the previous key still work; new tokens are signed with the promoted standby.
    expectOk(await me(s.access_token));
    advance(t, 61_000);
    const s2 = await signInByPhone(t, tenant);
    expect(decodeProtectedHeader(s2.access_token).kid).toBe(current);
    expect(expectOk(await t.http().get('/.well-known/jwks.json')).keys).toHaveLength(3);
    expectError(await t.http().post('/v1/operator/identity/signing_keys/rotate').set(bearer('sk_test_nope')), 401, 'operator_token_invalid');
    await rotateSigningKeys(t.ctx);
    expect((expectError(await me(s.access_token), 401, 'invalid_access_token')).details.reason).toBe('unknown_key');
    expectOk(await me(s2.access_token));
    const stored = await t.ctx.db.selectFrom('identity_signing_keys').select(['private_sealed', 'status']).execute();
    for (const row of stored) expect(row.private_sealed).toMatch(/^v1\./);
  });
});
