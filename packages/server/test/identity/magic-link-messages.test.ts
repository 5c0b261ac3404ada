import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { advance, expectError, expectOk, newEmail, newPhone, type Tenant } from './identity-fixtures';
import { runOutbox } from '../messaging/outbox-kit';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

async function sendLink(tenant: Tenant, email: string, redirect_to?: string) {
  expectOk(await t.http().post('/auth/v1/magic_link').set('Svc-Publishable-Key', tenant.keys.test.publishable).send({ email, redirect_to }));
  const message = expectOk(await t.http().get('/v1/messages').query({ to: email, template: 'magic_link' }).set(bearer(tenant.keys.test.secret))).data[0];
  const link = new URL(/(http\S+\/auth\/v1\/magic_link\/verify\?token=[\w-]+)/.exec(message.body)![1]!);
  return { path: `${link.pathname}${link.search}`, code: /\b(\d{6})\b/.exec(message.body)![1]!, message };
}

describe('email link', () => {
  it('shows a page on GET without spending the link, and signs in once on POST with a 303 to an allowed redirect', async () => {
    const tenant = await t.tenant();
    expectOk(await t.http().patch('/v1/identity/settings').set(bearer(tenant.keys.test.secret)).send({ redirect_urls: ['https://app.example.test/welcome'] }));
    const email = newEmail();
    const { path, message } = await sendLink(tenant, email, 'https://app.example.test/welcome?from=mail');
    expect(message).toMatchObject({ channel: 'email', subject: 'Sign in to Acme', status: 'captured' });
    for (let i = 0; i < 2; i++) {
      const page = await t.http().get(path);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.text).toContain('<form method="post">');
    }
    const used = await t.http().post(path);
    expect(used.status).toBe(303);
    const location = new URL(used.headers.location);
    expect(`${location.origin}${location.pathname}${location.search}`).toBe('https://app.example.test/welcome?from=mail');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('token_type')).toBe('bearer');
    const me = expectOk(await t.http().get('/auth/v1/user').set(bearer(fragment.get('access_token')!))).data;
    expect(me.email).toBe(email);
    // Single use.
    for (const res of [await t.http().post(path), await t.http().get(path)]) expect(res.text).toContain('Link expired');
  });

  it('says "signed in" on the page when redirect_to is not allowed, and expires after 15 minutes', async () => {
    const tenant = await t.tenant();
    const { path } = await sendLink(tenant, newEmail(), 'https://evil.example.test/steal');
    const used = await t.http().post(path);
    expect(used.status).toBe(200);
    expect(used.text).toContain('Signed in');
    expect(used.headers.location).toBeUndefined();

    const late = await sendLink(tenant, newEmail());
    advance(t, 15 * 60_000 + 1000);
    for (const res of [await t.http().get(late.path), await t.http().post(late.path), await t.http().post('/auth/v1/magic_link/verify?token=unknown-token')]) {
      expect(res.status).toBe(200);
      expect(res.text).toContain('Link expired');
    }
  });

  it('also carries a 6-digit code that signs in through verify', async () => {
    const tenant = await t.tenant();
    const email = newEmail();
    const { code } = await sendLink(tenant, email);
    const session = expectOk(await t.http().post('/auth/v1/verify').set('Svc-Publishable-Key', tenant.keys.test.publishable).send({ email, code })).data;
    expect(session.user.email).toBe(email);
  });
});

describe('identity settings and messages', () => {
  it('replaces the redirect allow-list and reads it back per environment', async () => {
    const tenant = await t.tenant();
    const sk = bearer(tenant.keys.test.secret);
    expect(expectOk(await t.http().get('/v1/identity/settings').set(sk)).data).toEqual({ object: 'identity_settings', livemode: false, redirect_urls: [] });
    expectOk(await t.http().patch('/v1/identity/settings').set(sk).send({ redirect_urls: ['https://a.example.test/'] }));
    expect(expectOk(await t.http().get('/v1/identity/settings').set(sk)).data.redirect_urls).toEqual(['https://a.example.test/']);
    expect(expectOk(await t.http().get('/v1/identity/settings').set(bearer(tenant.keys.live.secret))).data.redirect_urls).toEqual([]);
    expectError(await t.http().patch('/v1/identity/settings').set(sk).send({ redirect_urls: ['not a url'] }), 422, 'validation_failed');
  });

  it('in live mode fails messages of a channel with no provider, answers 503 to a code, and redacts codes', async () => {
    const tenant = await t.tenant();
    const live = bearer(tenant.keys.live.secret);
    const phone = newPhone();
    expectError(await t.http().post('/auth/v1/otp').set('Svc-Publishable-Key', tenant.keys.live.publishable).send({ phone }), 503, 'channel_unavailable');
    const [failed] = expectOk(await t.http().get('/v1/messages').query({ to: phone }).set(live)).data;
    expect(failed).toMatchObject({ livemode: true, status: 'failed', error_code: 'channel_not_configured', template: 'otp_code', body: '[redacted]' });
    // A code that will never be sent is not kept either.
    const stored = await t.ctx.db.selectFrom('messages').select('body').where('id', '=', failed.id).executeTakeFirstOrThrow();
    expect(stored.body).toBe('[redacted]');
    // An invitation is not sensitive: its body shows; it fails the same way.
    const member = expectOk(await t.http().post('/v1/members').set(live).send({ email: 'staff@example.test', role: 'viewer' }), 201).data;
    // The outbox worker finds no provider for it.
    await runOutbox(t);
    const invitation = expectOk(await t.http().get('/v1/messages').query({ related: member.id }).set(live)).data[0];
    expect(invitation).toMatchObject({ status: 'failed', error_code: 'channel_not_configured' });
    expect(invitation.body).toContain('invited');
    expect(expectOk(await t.http().get(`/v1/messages/${invitation.id}`).set(live)).data).toEqual(invitation);
    // Test mode cannot see live messages, nor another tenant.
    expectError(await t.http().get(`/v1/messages/${invitation.id}`).set(bearer(tenant.keys.test.secret)), 404, 'resource_not_found');
  });

  it('takes a restricted key with messaging:read, and filters by channel and template', async () => {
    const tenant = await t.tenant();
    const sk = bearer(tenant.keys.test.secret);
    const rk = expectOk(await t.http().post('/v1/keys').set(sk).send({ type: 'restricted', scopes: ['messaging:read'] }), 201).data.secret;
    await sendLink(tenant, newEmail());
    expectOk(await t.http().post('/auth/v1/otp').set('Svc-Publishable-Key', tenant.keys.test.publishable).send({ phone: newPhone(), channel: 'whatsapp' }));
    expect(expectOk(await t.http().get('/v1/messages').query({ channel: 'whatsapp' }).set(bearer(rk))).data).toHaveLength(1);
    expect(expectOk(await t.http().get('/v1/messages').query({ template: 'magic_link' }).set(bearer(rk))).data).toHaveLength(1);
    const none = expectOk(await t.http().post('/v1/keys').set(sk).send({ type: 'restricted', scopes: ['customers:read'] }), 201).data.secret;
    expectError(await t.http().get('/v1/messages').set(bearer(none)), 403, 'missing_scope');
  });
});
