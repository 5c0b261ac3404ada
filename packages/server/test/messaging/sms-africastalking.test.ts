import { describe, expect, it } from 'vitest';
import { bearer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { AT_API_KEY, AT_INVALID, AT_NO_BALANCE, AT_USERNAME, africasTalkingFake, smsSentTo } from './fakes/africas-talking-fake';
import { eventsAbout, kenyanNumber, messageOf, messagesTo, useFake, useServerWith, type Tenant } from './messaging-fixtures';
import { outboxDeps, runOutbox } from './outbox-kit';
import { OutboxWorker } from '../../src/modules/messaging';
import { africasTalkingChannel } from '../../src/modules/messaging/channels/africas-talking.channel';
import { ChannelFailure } from '../../src/modules/messaging';

const fake = useFake(africasTalkingFake());
const SECRET = 'at-callback-secret-0123456789';
const t = useServerWith(() => ({
  AFRICASTALKING_USERNAME: AT_USERNAME,
  AFRICASTALKING_API_KEY: AT_API_KEY,
  AFRICASTALKING_SENDER_ID: 'SVC',
  AFRICASTALKING_API_URL: fake.url,
  AFRICASTALKING_CALLBACK_SECRET: SECRET,
  SVC_RATE_LIMIT_PUBLIC: '100000',
}));

const callback = (query: string, form: Record<string, string>) =>
  t.http().post(`/api/v1/messaging/africastalking/callbacks/default${query}`).type('form').send(new URLSearchParams(form).toString());

async function invite(tenant: Tenant, phone: string) {
  expectStatus(await t.http().post('/v1/members').set(bearer(tenant.keys.live.secret)).send({ phone, role: 'viewer' }), 201);
  const [message] = await messagesTo(t, tenant.keys.live.secret, phone);
  return message!;
}

describe("SMS through Africa's Talking", () => {
  it('sends a sign-in code as the documented form request and keeps the messageId', async () => {
    const tenant = await t.tenant();
    const phone = kenyanNumber();
    expectStatus(await t.http().post('/auth/v1/otp').set('Svc-Publishable-Key', tenant.keys.live.publishable).send({ phone, channel: 'sms' }), 200);
    await runOutbox(t);
    const [form] = smsSentTo(fake, phone);
    expect(form!.get('username')).toBe(AT_USERNAME);
    expect(form!.get('from')).toBe('SVC');
    expect(form!.get('message')).toMatch(/^Your Acme sign-in code is \d{6}\./);
    const [message] = await messagesTo(t, tenant.keys.live.secret, phone);
    expect(message).toMatchObject({ status: 'sent', body: '[redacted]', provider_id: expect.stringMatching(/^ATXid_/) });
  });

  it('fails an invalid number at once (status 403), without retrying', async () => {
    const tenant = await t.tenant();
    const message = await invite(tenant, AT_INVALID);
    await runOutbox(t);
    expect(await messageOf(t, tenant.keys.live.secret, message.id)).toMatchObject({ status: 'failed', error_code: 'invalid_number', attempts: 1 });
    expect((await eventsAbout(t, message.id)).map((e) => e.type)).toEqual(['messaging.message.failed']);
  });

  it('retries at 1 min, 5 min, 30 min and 2 h on the outbox clock, then fails', async () => {
    const tenant = await t.tenant();
    const message = await invite(tenant, AT_NO_BALANCE);
    let now = new Date('2031-05-01T08:00:00Z');
    const deps = outboxDeps(t, { clock: () => now });
    const worker = new OutboxWorker(deps);
    await runOutbox(t, deps);
    const waits = [1, 5, 30, 120];
    for (const [i, minutes] of waits.entries()) {
      const row = await messageOf(t, tenant.keys.live.secret, message.id);
      const due = new Date(now.getTime() + minutes * 60_000);
      expect(row).toMatchObject({ status: 'queued', attempts: i + 1, error_code: 'insufficient_balance', next_attempt_at: due.toISOString() });
      // A second before it is due nothing is queued; at the time it is.
      now = new Date(due.getTime() - 1000);
      expect(await worker.tick()).toBe(0);
      now = due;
      expect(await worker.tick()).toBe(1);
      await runOutbox(t, deps);
    }
    const failed = await messageOf(t, tenant.keys.live.secret, message.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 5, error_code: 'insufficient_balance', next_attempt_at: null });
    expect(fake.requests.filter((r) => new URLSearchParams(r.body).get('to') === AT_NO_BALANCE).length).toBeGreaterThanOrEqual(5);
  });

  it('reads the documented error answers: a bad key is retried, a malformed request refused', async () => {
    const message = { id: 'msg_x', channel: 'sms' as const, to: '+254700000001', template: 't', subject: null, body: 'hi', params: {} };
    const badKey = africasTalkingChannel({ username: AT_USERNAME, apiKey: 'wrong', apiUrl: fake.url });
    const refused = await badKey.send(message, 'msg_x').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ChannelFailure);
    expect(refused).toMatchObject({ code: 'provider_auth_failed', permanent: false });
    const empty = await africasTalkingChannel({ username: AT_USERNAME, apiKey: AT_API_KEY, apiUrl: fake.url }).send({ ...message, body: '' }, 'msg_x').catch((e: unknown) => e);
    expect(empty).toMatchObject({ code: 'rejected', permanent: true });
    const down = await africasTalkingChannel({ username: AT_USERNAME, apiKey: AT_API_KEY, apiUrl: 'http://127.0.0.1:1' }).send(message, 'msg_x').catch((e: unknown) => e);
    expect(down).toMatchObject({ code: 'provider_unreachable', permanent: false });
  });

  it('takes delivery reports with the shared secret in the URL; replays change nothing', async () => {
    const tenant = await t.tenant();
    const phone = kenyanNumber();
    const message = await invite(tenant, phone);
    await runOutbox(t);
    const { provider_id } = await messageOf(t, tenant.keys.live.secret, message.id);
    const report = { id: provider_id, status: 'Success', phoneNumber: phone, networkCode: '63902', retryCount: '0' };

    // Every secret case: missing, wrong, right.
    expectError(await callback('', report), 401, 'message_callback_refused');
    expectError(await callback('?secret=wrong-secret', report), 401, 'message_callback_refused');
    expectError(await t.http().post(`/api/v1/messaging/africastalking/callbacks/other?secret=${SECRET}`).type('form').send(report), 404, 'resource_not_found');
    expectError(await t.http().post(`/api/v1/messaging/nosuch/callbacks/default?secret=${SECRET}`).type('form').send(report), 404, 'resource_not_found');
    expect((await messageOf(t, tenant.keys.live.secret, message.id)).status).toBe('sent');
    // Intermediate statuses change nothing.
    expect(expectStatus(await callback(`?secret=${SECRET}`, { ...report, status: 'Buffered' }), 200).outcomes).toEqual([]);

    expect(expectStatus(await callback(`?secret=${SECRET}`, report), 200).outcomes).toEqual(['applied']);
    const delivered = await messageOf(t, tenant.keys.live.secret, message.id);
    expect(delivered).toMatchObject({ status: 'delivered', delivered_at: expect.any(String) });
    expect(expectStatus(await callback(`?secret=${SECRET}`, report), 200).outcomes).toEqual(['unchanged']);
    // A late failure after delivery changes nothing either.
    expect(expectStatus(await callback(`?secret=${SECRET}`, { ...report, status: 'Failed', failureReason: 'DeliveryFailure' }), 200).outcomes).toEqual(['unchanged']);
    expect(await messageOf(t, tenant.keys.live.secret, message.id)).toEqual(delivered);
    const events = await eventsAbout(t, message.id);
    expect(events.map((e) => e.type)).toEqual(['messaging.message.delivered']);
    expect(events[0]!.object.related).toEqual(message.related);
    // Unknown ids are taken, so the provider does not retry them forever; a report without an id is not one.
    expect(expectStatus(await callback(`?secret=${SECRET}`, { ...report, id: 'ATXid_unknown' }), 200).outcomes).toEqual(['unknown']);
    expectError(await callback(`?secret=${SECRET}`, { status: 'Success' }), 400, 'invalid_request');
  });

  it('fails a message on a failed report, with the reason as its error code', async () => {
    const tenant = await t.tenant();
    const message = await invite(tenant, kenyanNumber());
    await runOutbox(t);
    const { provider_id } = await messageOf(t, tenant.keys.live.secret, message.id);
    expectStatus(await callback(`?secret=${SECRET}`, { id: provider_id, status: 'Rejected', failureReason: 'UserInBlackList' }), 200);
    expect(await messageOf(t, tenant.keys.live.secret, message.id)).toMatchObject({ status: 'failed', error_code: 'recipient_blacklisted' });
    expectStatus(await callback(`?secret=${SECRET}`, { id: provider_id, status: 'Success' }), 200);
    expect((await messageOf(t, tenant.keys.live.secret, message.id)).status).toBe('failed');
  });
});
