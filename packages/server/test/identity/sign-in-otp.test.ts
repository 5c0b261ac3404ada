import { createRemoteJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { advance, expectError, expectOk, latestCode, newEmail, newPhone, signInByPhone } from './identity-fixtures';

const t = useTestServer();

describe('sign-in by phone code', () => {
  it('sends a captured code, verifies it into a session, and links one person and customer', async () => {
    const tenant = await t.tenant();
    const phone = newPhone();
    const pk = { 'Svc-Publishable-Key': tenant.keys.test.publishable };
    const sent = expectOk(await t.http().post('/auth/v1/otp').set(pk).send({ phone }));
    expect(sent.data.channel).toBe('sms');
    expect(new Date(sent.data.expires_at).getTime() - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(new Date(sent.data.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000);

    const list = expectOk(await t.http().get('/v1/messages').query({ to: phone }).set(bearer(tenant.keys.test.secret)));
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ object: 'message', channel: 'sms', to: phone, template: 'otp_code', status: 'captured', livemode: false });
    expect(list.data[0].body).toMatch(/\d{6}/);

    const code = await latestCode(t, tenant.keys.test.secret, phone);
    const session = expectOk(await t.http().post('/auth/v1/verify').set(pk).send({ phone, code })).data;
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 900 });
    expect(session.user).toMatchObject({ phone, email: null, tenant: tenant.tenant.id, livemode: false });
    expect(session.user.id).toMatch(/^usr_/);
    expect(session.user.customer).toMatch(/^cus_/);

    const customer = expectOk(await t.http().get(`/v1/customers/${session.user.customer}`).set(bearer(tenant.keys.test.secret))).data;
    expect(customer).toMatchObject({ phone, person: session.user.id });

    // The same person signing in again keeps their person and customer.
    const again = await signInByPhone(t, tenant, phone).catch(() => undefined);
    expect(again).toBeUndefined(); // within 60 s a second code is refused
  });

  it('links the first sign-in to an existing customer with that email, and is one person across tenants', async () => {
    const a = await t.tenant('A');
    const b = await t.tenant('B');
    const email = newEmail();
    const existing = expectOk(await t.http().post('/v1/customers').set(bearer(a.keys.test.secret)).send({ email, name: 'Wanjiru' }), 201).data;
    const pkA = { 'Svc-Publishable-Key': a.keys.test.publishable };
    expectOk(await t.http().post('/auth/v1/otp').set(pkA).send({ email }));
    const code = await latestCode(t, a.keys.test.secret, email);
    const inA = expectOk(await t.http().post('/auth/v1/verify').set(pkA).send({ email, code })).data;
    expect(inA.user.customer).toBe(existing.id);

    // Send limits are per destination across the service: the next code may go out after 60 s.
    advance(t, 61_000);
    const pkB = { 'Svc-Publishable-Key': b.keys.test.publishable };
    expectOk(await t.http().post('/auth/v1/otp').set(pkB).send({ email: email.toUpperCase() }));
    // B's outbox holds B's message only; A's secret cannot read it.
    const codeB = await latestCode(t, b.keys.test.secret, email);
    const inB = expectOk(await t.http().post('/auth/v1/verify').set(pkB).send({ email, code: codeB })).data;
    expect(inB.user.id).toBe(inA.user.id);
    expect(inB.user.customer).not.toBe(inA.user.customer);
    const fromA = expectOk(await t.http().get('/v1/messages').query({ to: email }).set(bearer(a.keys.test.secret)));
    expect(fromA.data).toHaveLength(1);
  });

  it('answers 200 whether or not the person exists, and refuses a channel that does not fit', async () => {
    const tenant = await t.tenant();
    const pk = { 'Svc-Publishable-Key': tenant.keys.test.publishable };
    const res = expectOk(await t.http().post('/auth/v1/otp').set(pk).send({ phone: newPhone(), channel: 'whatsapp' }));
    expect(res.data.channel).toBe('whatsapp');
    expectError(await t.http().post('/auth/v1/otp').set(pk).send({ email: newEmail(), channel: 'sms' }), 400, 'invalid_request');
    expectError(await t.http().post('/auth/v1/otp').set(pk).send({ email: newEmail(), phone: newPhone() }), 400, 'invalid_request');
    expectError(await t.http().post('/auth/v1/otp').set(pk).send({ phone: '0712345678' }), 422, 'validation_failed');
  });

  it('issues ES256 tokens that an independent verifier accepts against the served JWKS', async () => {
    const tenant = await t.tenant();
    const session = await signInByPhone(t, tenant);
    const server = t.app.listen(0, '127.0.0.1');
    try {
      await new Promise((r) => server.once('listening', r));
      const { port } = server.address() as { port: number };
      const jwks = await fetch(`http://127.0.0.1:${port}/.well-known/jwks.json`);
      expect(jwks.headers.get('cache-control')).toMatch(/max-age=\d+/);
      const other = await fetch(`http://127.0.0.1:${port}/auth/v1/.well-known/jwks.json`);
      expect(await other.json()).toEqual(await jwks.json());
      const keySet = createRemoteJWKSet(new URL(`http://127.0.0.1:${port}/.well-known/jwks.json`));
      const { payload, protectedHeader } = await jwtVerify(session.access_token, keySet, {
        issuer: `${t.ctx.config.baseUrl}/auth/v1`,
        audience: 'svc',
        algorithms: ['ES256'],
      });
      expect(protectedHeader.kid).toMatch(/^isk_/);
      expect(payload).toMatchObject({ sub: session.user.id, tid: tenant.tenant.id, cus: session.user.customer, livemode: false, amr: ['otp'] });
      expect(payload.sid).toMatch(/^ses_/);
      expect(typeof payload.jti).toBe('string');
      expect(payload.exp! - payload.iat!).toBe(900);
    } finally {
      server.close();
    }
  });
});
