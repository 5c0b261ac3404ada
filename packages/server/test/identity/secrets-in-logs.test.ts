import { Writable } from 'node:stream';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { createLogger } from '../../src/boot/logger';
import { bearer, useTestServer } from '../harness';
import { expectOk, latestCode, newEmail, newPhone } from './identity-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

describe('identity secrets', () => {
  it('never reach the logs, an event payload or a stored column in the clear', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const http = () => supertest(createApp({ ...t.ctx, log: createLogger('trace', sink) }));
    const tenant = await t.tenant();
    const pk = { 'Svc-Publishable-Key': tenant.keys.test.publishable };
    const phone = newPhone();

    expectOk(await http().post('/auth/v1/otp').set(pk).send({ phone }));
    const code = await latestCode(t, tenant.keys.test.secret, phone);
    await http().post('/auth/v1/verify').set(pk).send({ phone, code: code === '000000' ? '111111' : '000000' });
    const session = expectOk(await http().post('/auth/v1/verify').set(pk).send({ phone, code })).data;
    const refreshed = expectOk(await http().post('/auth/v1/token').send({ grant_type: 'refresh_token', refresh_token: session.refresh_token })).data;
    const customerToken = expectOk(await http().post('/auth/v1/customer_token').set(pk).set(bearer(refreshed.access_token))).data.token;

    const email = newEmail();
    expectOk(await http().post('/auth/v1/magic_link').set(pk).send({ email }));
    const mail = expectOk(await t.http().get('/v1/messages').query({ to: email }).set(bearer(tenant.keys.test.secret))).data[0].body as string;
    const linkToken = /token=([\w-]+)/.exec(mail)![1]!;
    const linkCode = /\b(\d{6})\b/.exec(mail)![1]!;
    await http().get(`/auth/v1/magic_link/verify?token=${linkToken}`);
    await http().post(`/auth/v1/magic_link/verify?token=${linkToken}`);

    const clientSecret = 'oidc-client-secret-that-must-stay-hidden';
    // The issuer must resolve to a public address (oidc-outbound.test.ts).
    t.ctx.resolveHost = async () => [{ address: '93.184.216.34', family: 4 }];
    const provider = expectOk(
      await http().put('/v1/identity/providers/acme').set(bearer(tenant.keys.test.secret)).send({ issuer: 'https://id.example.test', client_id: 'svc', client_secret: clientSecret }),
    ).data;
    expect(JSON.stringify(provider)).not.toContain(clientSecret);
    expect(JSON.stringify(expectOk(await http().get('/v1/identity/providers').set(bearer(tenant.keys.test.secret))))).not.toContain(clientSecret);

    const secrets = [code, linkCode, linkToken, session.access_token, session.refresh_token, refreshed.refresh_token, refreshed.access_token, customerToken, clientSecret];
    const logText = lines.join('');
    expect(lines.length).toBeGreaterThan(5);
    for (const secret of secrets) expect(logText).not.toContain(secret);

    const events = await t.ctx.db.selectFrom('event_log').select('envelope').where('tenant_id', '=', tenant.tenant.id).execute();
    const eventText = JSON.stringify(events);
    for (const secret of secrets) expect(eventText).not.toContain(secret);

    // At rest: codes as HMACs, refresh and link tokens as SHA-256, the client secret and signing keys sealed.
    const stored = JSON.stringify([
      await t.ctx.db.selectFrom('otp_challenges').selectAll().execute(),
      await t.ctx.db.selectFrom('refresh_tokens').selectAll().execute(),
      await t.ctx.db.selectFrom('identity_providers').selectAll().execute(),
      await t.ctx.db.selectFrom('identity_signing_keys').select('private_sealed').execute(),
    ]);
    for (const secret of [linkToken, session.refresh_token, refreshed.refresh_token, clientSecret]) expect(stored).not.toContain(secret);
    const challenge = await t.ctx.db.selectFrom('otp_challenges').select('code_hmac').where('destination', '=', `phone:${phone}`).executeTakeFirstOrThrow();
    expect(challenge.code_hmac).toMatch(/^[0-9a-f]{64}$/);
  });
});
