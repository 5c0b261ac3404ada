import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { ChannelFailure, OutboxWorker, registerMessageChannel, type MessageChannel, type OutgoingMessage } from '../../src/modules/messaging';
import { eventsAbout, kenyanNumber, messageOf, messagesTo } from './messaging-fixtures';
import { outboxDeps, runOutbox } from './outbox-kit';
import { deliverMessage } from '../../src/modules/messaging/delivery/deliver-message';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000', SVC_MESSAGES_PER_HOUR: '3' });

/** An operator's own SMS provider: it records what it sends, and can hang (a process dying mid-send) or refuse. */
class RecordingChannel implements MessageChannel {
  readonly channel = 'sms' as const;
  readonly provider = 'recording';
  readonly sent: OutgoingMessage[] = [];
  mode: 'ok' | 'hang' | 'refuse' = 'ok';
  /** Lets a hung call answer at last, as a dead process's request might still have reached the provider. */
  release: (() => void) | null = null;
  send(message: OutgoingMessage) {
    if (this.mode === 'hang') return new Promise<{ providerId: string }>((resolve) => (this.release = () => resolve({ providerId: 'rec_late' })));
    if (this.mode === 'refuse') return Promise.reject(new ChannelFailure('provider_error', false, 'gateway said no'));
    this.sent.push(message);
    return Promise.resolve({ providerId: `rec_${this.sent.length}_${message.id}` });
  }
}

const sms = new RecordingChannel();
const useSms = () => registerMessageChannel(t.ctx, sms);
const pk = (key: string) => ({ 'Svc-Publishable-Key': key });

describe('the outbox', () => {
  it('cancels a sign-in code that expired before it could go out, and never sends it late', async () => {
    useSms();
    const tenant = await t.tenant();
    const phone = kenyanNumber();
    expectStatus(await t.http().post('/auth/v1/otp').set(pk(tenant.keys.live.publishable)).send({ phone, channel: 'sms' }), 200);
    const late = new Date(Date.now() + 5 * 60_000 + 1000);
    await runOutbox(t, { clock: () => late });
    const [message] = await messagesTo(t, tenant.keys.live.secret, phone);
    expect(message).toMatchObject({ status: 'cancelled', error_code: 'expired', attempts: 0 });
    expect(sms.sent.filter((m) => m.to === phone)).toEqual([]);
  });

  it('cancels a code whose retry would come after its expiry', async () => {
    useSms();
    const tenant = await t.tenant();
    const phone = kenyanNumber();
    expectStatus(await t.http().post('/auth/v1/otp').set(pk(tenant.keys.live.publishable)).send({ phone, channel: 'sms' }), 200);
    sms.mode = 'refuse';
    // The first attempt fails 4½ minutes in: the next one (1 min later) would be past the 5-minute expiry.
    await runOutbox(t, { clock: () => new Date(Date.now() + 4.5 * 60_000) });
    sms.mode = 'ok';
    const [message] = await messagesTo(t, tenant.keys.live.secret, phone);
    expect(message).toMatchObject({ status: 'cancelled', error_code: 'expired', attempts: 1 });
  });

  it('sends a message once after a crash mid-send, and the crashed attempt\'s late answer changes nothing', async () => {
    useSms();
    const tenant = await t.tenant();
    const phone = kenyanNumber();
    expectStatus(await t.http().post('/v1/members').set(bearer(tenant.keys.live.secret)).send({ phone, role: 'viewer' }), 201);
    const [queued] = await messagesTo(t, tenant.keys.live.secret, phone);
    const start = new Date();

    // The first process takes the message and hangs in the provider call: it never comes back.
    sms.mode = 'hang';
    const crashed = runOutbox(t, { clock: () => start });
    let row;
    do row = await messageOf(t, tenant.keys.live.secret, queued!.id);
    while (row.status !== 'sending');
    expect(row.attempts).toBe(1);

    // A restarted process: its scheduler leaves the attempt alone while its lease runs, then sends it again.
    sms.mode = 'ok';
    const restarted = (at: Date) => outboxDeps(t, { clock: () => at });
    expect(await new OutboxWorker(restarted(new Date(start.getTime() + 60_000))).tick()).toBe(0);
    const after = new Date(start.getTime() + 2 * 60_000 + 1);
    expect(await new OutboxWorker(restarted(after)).tick()).toBe(1);
    await runOutbox(t, restarted(after));
    await runOutbox(t, restarted(after));
    expect(sms.sent.filter((m) => m.to === phone)).toHaveLength(1);
    const sent = await messageOf(t, tenant.keys.live.secret, queued!.id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, provider_id: expect.stringMatching(/^rec_\d+_msg_/) });
    sms.release!();
    await crashed;
    expect(await messageOf(t, tenant.keys.live.secret, queued!.id)).toEqual(sent);
  });

  it('calls the provider once when two jobs of one message run at once (at-least-once delivery)', async () => {
    useSms();
    const tenant = await t.tenant();
    const phone = kenyanNumber();
    expectStatus(await t.http().post('/v1/members').set(bearer(tenant.keys.live.secret)).send({ phone, role: 'viewer' }), 201);
    const [queued] = await messagesTo(t, tenant.keys.live.secret, phone);
    const deps = outboxDeps(t);
    await Promise.all([deliverMessage(deps, queued!.id), deliverMessage(deps, queued!.id), deliverMessage(deps, queued!.id)]);
    await deliverMessage(deps, queued!.id);
    expect(sms.sent.filter((m) => m.to === phone)).toHaveLength(1);
    expect(await messageOf(t, tenant.keys.live.secret, queued!.id)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('fails live messages of a channel with no provider', async () => {
    const tenant = await t.tenant();
    expectStatus(await t.http().post('/v1/members').set(bearer(tenant.keys.live.secret)).send({ email: 'staff@example.test', role: 'viewer' }), 201);
    await runOutbox(t);
    const [message] = await messagesTo(t, tenant.keys.live.secret, 'staff@example.test');
    expect(message).toMatchObject({ status: 'failed', error_code: 'channel_not_configured', attempts: 0 });
    expect((await eventsAbout(t, message!.id)).map((e) => e.type)).toEqual(['messaging.message.failed']);
  });

  it('never logs a body: a failed attempt logs the provider\'s answer only', async () => {
    useSms();
    const lines: string[] = [];
    const log = pino({ level: 'debug' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    const tenant = await t.tenant();
    const phone = kenyanNumber();
    expectStatus(await t.http().post('/auth/v1/otp').set(pk(tenant.keys.live.publishable)).send({ phone, channel: 'sms' }), 200);
    const { body } = await t.ctx.db.selectFrom('messages').select('body').where('to', '=', phone).executeTakeFirstOrThrow();
    const code = /\d{6}/.exec(body)![0];
    sms.mode = 'refuse';
    await runOutbox(t, { log });
    sms.mode = 'ok';
    expect(lines.join('')).toContain('message attempt failed');
    expect(lines.join('')).not.toContain(code);
  });
});

describe('test mode', () => {
  it('captures every message and fails the magic recipients on purpose', async () => {
    const tenant = await t.tenant();
    const test = bearer(tenant.keys.test.secret);
    expectStatus(await t.http().post('/auth/v1/otp').set(pk(tenant.keys.test.publishable)).send({ phone: '+254799000001', channel: 'sms' }), 200);
    expectStatus(await t.http().post('/auth/v1/otp').set(pk(tenant.keys.test.publishable)).send({ phone: '+254799000002', channel: 'whatsapp' }), 200);
    // The WhatsApp magic number on SMS (an invitation by phone goes by SMS) is captured like any other.
    expectStatus(await t.http().post('/v1/members').set(test).send({ phone: '+254799000002', role: 'viewer' }), 201);
    expectStatus(await t.http().post('/v1/members').set(test).send({ email: 'bounce@example.com', role: 'viewer' }), 201);
    const plain = kenyanNumber();
    expectStatus(await t.http().post('/auth/v1/otp').set(pk(tenant.keys.test.publishable)).send({ phone: plain }), 200);
    const [bounce] = await messagesTo(t, tenant.keys.test.secret, 'bounce@example.com');
    expect(bounce).toMatchObject({ status: 'captured' });

    await runOutbox(t);
    const statuses = async (to: string) => (await messagesTo(t, tenant.keys.test.secret, to)).map((m) => [m.channel, m.status, m.error_code]);
    expect(await statuses('+254799000001')).toEqual([['sms', 'failed', 'invalid_number']]);
    expect(await statuses('+254799000002')).toEqual([
      ['sms', 'captured', null],
      ['whatsapp', 'failed', 'not_on_whatsapp'],
    ]);
    expect(await statuses('bounce@example.com')).toEqual([['email', 'failed', 'bounced']]);
    expect(await statuses(plain)).toEqual([['sms', 'captured', null]]);
    // Test mode shows the body, and the failure is an event tenants can receive.
    expect((await messagesTo(t, tenant.keys.test.secret, '+254799000001'))[0]!.body).toMatch(/\d{6}/);
    const events = await eventsAbout(t, bounce!.id);
    expect(events.map((e) => [e.type, e.object.livemode])).toEqual([['messaging.message.failed', false]]);
  });
});

describe('tenant control', () => {
  it('resends a message as a new one, refuses codes and links, and filters by status and template', async () => {
    const tenant = await t.tenant();
    const test = bearer(tenant.keys.test.secret);
    const member = expectStatus(await t.http().post('/v1/members').set(test).send({ email: 'again@example.test', role: 'viewer' }), 201).data;
    const [invitation] = await messagesTo(t, tenant.keys.test.secret, 'again@example.test');
    const resent = expectStatus(await t.http().post(`/v1/messages/${invitation!.id}/resend`).set(test), 201).data;
    expect(resent).toMatchObject({ resent_from: invitation!.id, status: 'captured', body: invitation!.body, related: [member.id], template: 'member_invitation' });
    expect(resent.id).not.toBe(invitation!.id);

    const phone = kenyanNumber();
    expectStatus(await t.http().post('/auth/v1/otp').set(pk(tenant.keys.test.publishable)).send({ phone }), 200);
    const [code] = await messagesTo(t, tenant.keys.test.secret, phone);
    expectError(await t.http().post(`/v1/messages/${code!.id}/resend`).set(test), 422, 'message_not_resendable');
    expectError(await t.http().post('/v1/messages/msg_nope/resend').set(test), 404, 'resource_not_found');
    expectError(await t.http().post(`/v1/messages/${invitation!.id}/resend`).set(bearer(tenant.keys.live.secret)), 404, 'resource_not_found');
    const rk = expectStatus(await t.http().post('/v1/keys').set(test).send({ type: 'restricted', scopes: ['messaging:read'] }), 201).data.secret;
    expectError(await t.http().post(`/v1/messages/${invitation!.id}/resend`).set(bearer(rk)), 403, 'missing_scope');

    const captured = expectStatus(await t.http().get('/v1/messages').query({ status: 'captured', template: 'member_invitation' }).set(test), 200).data;
    expect(captured.map((m: { id: string }) => m.id)).toEqual([resent.id, invitation!.id]);
    expect(expectStatus(await t.http().get('/v1/messages').query({ status: 'delivered' }).set(test), 200).data).toEqual([]);
    expectError(await t.http().get('/v1/messages').query({ status: 'lost' }).set(test), 422, 'validation_failed');
  });

  it('answers 429 past the hourly send cap in live mode, and not in test mode', async () => {
    useSms();
    const tenant = await t.tenant();
    const live = bearer(tenant.keys.live.secret);
    const phones = [kenyanNumber(), kenyanNumber(), kenyanNumber()];
    for (const phone of phones) expectStatus(await t.http().post('/v1/members').set(live).send({ phone, role: 'viewer' }), 201);
    await runOutbox(t);
    const [first] = await messagesTo(t, tenant.keys.live.secret, phones[0]!);
    expect(first!.status).toBe('sent');
    const capped = await t.http().post('/auth/v1/otp').set(pk(tenant.keys.live.publishable)).send({ phone: kenyanNumber(), channel: 'sms' });
    expectError(capped, 429, 'send_cap_exceeded');
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(0);
    expectError(await t.http().post(`/v1/messages/${first!.id}/resend`).set(live), 429, 'send_cap_exceeded');
    // A message written by another change past the cap fails rather than undoing that change.
    expectStatus(await t.http().post('/v1/members').set(live).send({ phone: kenyanNumber(), role: 'viewer' }), 201);
    await runOutbox(t);
    const over = expectStatus(await t.http().get('/v1/messages').query({ status: 'failed' }).set(live), 200).data;
    expect(over.map((m: { error_code: string }) => m.error_code)).toEqual(['send_cap_exceeded']);
    // Test mode is not capped; nor is another tenant.
    expectStatus(await t.http().post('/auth/v1/otp').set(pk(tenant.keys.test.publishable)).send({ phone: kenyanNumber() }), 200);
    const other = await t.tenant();
    expectStatus(await t.http().post('/auth/v1/otp').set(pk(other.keys.live.publishable)).send({ phone: kenyanNumber(), channel: 'sms' }), 200);
  });
});
