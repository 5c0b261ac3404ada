import { describe, expect, it } from 'vitest';
import { bearer } from '../harness';
import { expectStatus } from '../kit/expect';
import { SmtpInbox } from './fakes/smtp-inbox';
import { eventsAbout, messageOf, messagesTo, useFake, useServerWith } from './messaging-fixtures';
import { outboxDeps, runOutbox } from './outbox-kit';
import { OutboxWorker } from '../../src/modules/messaging';

const inbox = useFake(new SmtpInbox());
const FROM = 'Svc Sign-in <no-reply@svc.example.test>';
const t = useServerWith(() => ({ SMTP_URL: `smtp://127.0.0.1:${inbox.port}`, SMTP_FROM: FROM, SVC_RATE_LIMIT_PUBLIC: '100000' }));

let n = 0;
const newAddress = () => `person${Date.now()}${n++}@example.test`;

describe('email over SMTP', () => {
  it('delivers the sign-in link as text and HTML with its Message-ID kept, and the person signs in with it', async () => {
    const tenant = await t.tenant();
    const email = newAddress();
    expectStatus(await t.http().post('/auth/v1/magic_link').set('Svc-Publishable-Key', tenant.keys.live.publishable).send({ email }), 200);
    const [queued] = await messagesTo(t, tenant.keys.live.secret, email);
    expect(queued).toMatchObject({ status: 'queued', template: 'magic_link', body: '[redacted]', attempts: 0 });

    await runOutbox(t);
    const [mail] = inbox.to(email);
    expect(mail).toBeDefined();
    const sent = await messageOf(t, tenant.keys.live.secret, queued!.id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, provider_id: mail!.messageId, body: '[redacted]' });
    expect(sent.sent_at).toEqual(expect.any(String));
    expect(mail!.messageId).toBe(`<${queued!.id}@svc.example.test>`);
    expect(mail!.subject).toBe('Sign in to Acme');
    expect(mail!.from!.value[0]).toEqual({ address: 'no-reply@svc.example.test', name: 'Acme' });
    const link = /(http\S+\/auth\/v1\/magic_link\/verify\?token=[\w-]+)/.exec(mail!.text!)![1]!;
    // The HTML part carries the same link as a button, escaped.
    expect(mail!.html).toContain(`href="${link}"`);
    expect(mail!.html).toContain('<h1');

    const url = new URL(link);
    const used = await t.http().post(`${url.pathname}${url.search}`);
    expect(used.status).toBe(200);
    expect(used.text).toContain('Signed in');
    // A second run of the worker sends nothing more.
    await runOutbox(t);
    expect(inbox.to(email)).toHaveLength(1);
  });

  it('delivers invitations, and fails an unknown mailbox at once with a failed event', async () => {
    const tenant = await t.tenant();
    const live = bearer(tenant.keys.live.secret);
    const staff = newAddress();
    const member = expectStatus(await t.http().post('/v1/members').set(live).send({ email: staff, role: 'viewer' }), 201).data;
    const gone = newAddress();
    inbox.refused.add(gone);
    expectStatus(await t.http().post('/v1/members').set(live).send({ email: gone, role: 'viewer' }), 201);
    await runOutbox(t);

    const [invitation] = inbox.to(staff);
    expect(invitation!.text).toContain('You have been invited');
    const [sent] = await messagesTo(t, tenant.keys.live.secret, staff);
    expect(sent).toMatchObject({ status: 'sent', related: [member.id], template: 'member_invitation' });

    const [refused] = await messagesTo(t, tenant.keys.live.secret, gone);
    expect(refused).toMatchObject({ status: 'failed', error_code: 'unknown_recipient', attempts: 1, next_attempt_at: null });
    const events = await eventsAbout(t, refused!.id);
    expect(events.map((e) => e.type)).toEqual(['messaging.message.failed']);
    expect(events[0]!.object).toMatchObject({ id: refused!.id, status: 'failed', error_code: 'unknown_recipient' });
  });

  it('retries a 4xx answer after a minute on the outbox clock', async () => {
    const tenant = await t.tenant();
    const address = newAddress();
    inbox.busy.add(address);
    expectStatus(await t.http().post('/v1/members').set(bearer(tenant.keys.live.secret)).send({ email: address, role: 'viewer' }), 201);
    const now = new Date('2030-01-01T10:00:00Z');
    const worker = new OutboxWorker(outboxDeps(t, { clock: () => now }));
    await runOutbox(t, { clock: () => now });
    const [waiting] = await messagesTo(t, tenant.keys.live.secret, address);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1, error_code: 'provider_error', next_attempt_at: '2030-01-01T10:01:00.000Z' });
    expect(await worker.tick()).toBe(0);

    inbox.busy.delete(address);
    const later = new Date('2030-01-01T10:01:00Z');
    expect(await new OutboxWorker(outboxDeps(t, { clock: () => later })).tick()).toBe(1);
    await runOutbox(t, { clock: () => later });
    expect((await messageOf(t, tenant.keys.live.secret, waiting!.id)).status).toBe('sent');
    expect(inbox.to(address)).toHaveLength(1);
  });

  it('goes through pg-boss: the worker registered with the queue sends a code request', async () => {
    const worker = new OutboxWorker(outboxDeps(t));
    t.ctx.jobs.register(worker.job());
    await t.ctx.jobs.start();
    const tenant = await t.tenant();
    const email = newAddress();
    expectStatus(await t.http().post('/auth/v1/otp').set('Svc-Publishable-Key', tenant.keys.live.publishable).send({ email }), 200);
    const deadline = Date.now() + 15_000;
    while (inbox.to(email).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const [mail] = inbox.to(email);
    expect(mail!.text).toMatch(/Your Acme sign-in code is \d{6}/);
    const [message] = await messagesTo(t, tenant.keys.live.secret, email);
    expect(message).toMatchObject({ status: 'sent', template: 'otp_code', body: '[redacted]' });
  });
});
