import { describe, expect, it } from 'vitest';
import { bearer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import {
  WA_APP_SECRET,
  WA_NOT_ON_WHATSAPP,
  WA_PHONE_NUMBER_ID,
  WA_RATE_LIMITED,
  WA_TOKEN,
  WA_VERIFY_TOKEN,
  hubSignature,
  statusNotification,
  whatsappFake,
} from './fakes/whatsapp-fake';
import { eventsAbout, kenyanNumber, messageOf, messagesTo, useFake, useServerWith, type Tenant } from './messaging-fixtures';
import { runOutbox } from './outbox-kit';

const fake = useFake(whatsappFake());
const t = useServerWith(() => ({
  WHATSAPP_PHONE_NUMBER_ID: WA_PHONE_NUMBER_ID,
  WHATSAPP_ACCESS_TOKEN: WA_TOKEN,
  WHATSAPP_APP_SECRET: WA_APP_SECRET,
  WHATSAPP_VERIFY_TOKEN: WA_VERIFY_TOKEN,
  WHATSAPP_API_URL: `${fake.url}/v21.0`,
  SVC_RATE_LIMIT_PUBLIC: '100000',
}));

const PATH = '/api/v1/messaging/whatsapp/callbacks/default';
const post = (raw: string, signature?: string) => {
  const req = t.http().post(PATH).set('content-type', 'application/json');
  if (signature !== undefined) req.set('X-Hub-Signature-256', signature);
  return req.send(raw);
};
const sentTo = (phone: string) => fake.requests.map((r) => JSON.parse(r.body)).filter((b) => b.to === phone.slice(1));

async function requestCode(tenant: Tenant, phone: string) {
  expectStatus(await t.http().post('/auth/v1/otp').set('Svc-Publishable-Key', tenant.keys.live.publishable).send({ phone, channel: 'whatsapp' }), 200);
  await runOutbox(t);
  const [message] = await messagesTo(t, tenant.keys.live.secret, phone);
  return message!;
}

describe('WhatsApp Business Cloud API', () => {
  it('sends a code as the authentication template and signs the person in with it', async () => {
    const tenant = await t.tenant();
    const phone = kenyanNumber();
    const message = await requestCode(tenant, phone);
    expect(message).toMatchObject({ status: 'sent', channel: 'whatsapp', provider_id: expect.stringMatching(/^wamid\./), body: '[redacted]' });
    const [request] = sentTo(phone);
    expect(request).toMatchObject({ messaging_product: 'whatsapp', recipient_type: 'individual', type: 'template', biz_opaque_callback_data: message.id });
    expect(request.template.name).toBe('sign_in_code');
    const code = request.template.components[0].parameters[0].text as string;
    expect(code).toMatch(/^\d{6}$/);
    expect(request.template.components[1]).toEqual({ type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: code }] });
    // Sent, the code is no longer stored.
    const stored = await t.ctx.db.selectFrom('messages').select(['body', 'params']).where('id', '=', message.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ body: '[redacted]', params: {} });
    const session = expectStatus(await t.http().post('/auth/v1/verify').set('Svc-Publishable-Key', tenant.keys.live.publishable).send({ phone, code }), 200);
    expect(session.data.user.phone).toBe(phone);
  });

  it('sends other messages as the utility template with the text as its parameter', async () => {
    const tenant = await t.tenant();
    const phone = kenyanNumber();
    // An invitation by phone goes by SMS; resending one on WhatsApp is not possible, so write through the outbox.
    const { writeMessage } = await import('../../src/modules/identity');
    await writeMessage(t.ctx.db, { tenantId: tenant.tenant.id, livemode: true }, { channel: 'whatsapp', to: phone, template: 'ticket', body: 'Your ticket\nfor Friday', related: ['ord_1'] });
    await runOutbox(t);
    const [request] = sentTo(phone);
    expect(request.template).toEqual({ name: 'notification', language: { code: 'en' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Your ticket · for Friday' }] }] });
  });

  it('fails a number not on WhatsApp at once, and retries a rate limit', async () => {
    const tenant = await t.tenant();
    const gone = await requestCode(tenant, WA_NOT_ON_WHATSAPP);
    expect(gone).toMatchObject({ status: 'failed', error_code: 'not_on_whatsapp', attempts: 1 });
    const busy = await requestCode(tenant, WA_RATE_LIMITED);
    expect(busy).toMatchObject({ status: 'queued', error_code: 'provider_rate_limited', attempts: 1 });
  });

  it('verifies the X-Hub-Signature-256 of status webhooks; replays change nothing', async () => {
    const tenant = await t.tenant();
    const message = await requestCode(tenant, kenyanNumber());
    const raw = JSON.stringify(statusNotification([{ id: message.provider_id, status: 'delivered' }]));

    expectError(await post(raw), 401, 'message_callback_refused');
    expectError(await post(raw, 'sha256=00'), 401, 'message_callback_refused');
    expectError(await post(raw, hubSignature(raw).replace('sha256=', 'sha1=')), 401, 'message_callback_refused');
    expectError(await post(raw, hubSignature(raw, 'another-secret')), 401, 'message_callback_refused');
    expectError(await post(`${raw} `, hubSignature(raw)), 401, 'message_callback_refused');
    expect((await messageOf(t, tenant.keys.live.secret, message.id)).status).toBe('sent');

    expect(expectStatus(await post(raw, hubSignature(raw)), 200).outcomes).toEqual(['applied']);
    const delivered = await messageOf(t, tenant.keys.live.secret, message.id);
    expect(delivered.status).toBe('delivered');
    expect(expectStatus(await post(raw, hubSignature(raw)), 200).outcomes).toEqual(['unchanged']);
    const read = JSON.stringify(statusNotification([{ id: message.provider_id, status: 'read' }]));
    expect(expectStatus(await post(read, hubSignature(read)), 200).outcomes).toEqual(['unchanged']);
    expect(await messageOf(t, tenant.keys.live.secret, message.id)).toEqual(delivered);
    expect((await eventsAbout(t, message.id)).map((e) => e.type)).toEqual(['messaging.message.delivered']);

    const notJson = 'not json';
    expectError(await post(notJson, hubSignature(notJson)), 400, 'invalid_request');
    expectError(await t.http().post('/api/v1/messaging/whatsapp/callbacks/elsewhere').set('X-Hub-Signature-256', hubSignature(raw)).send(raw), 404, 'resource_not_found');
  });

  it('fails a message on a failed status with the error mapped', async () => {
    const tenant = await t.tenant();
    const message = await requestCode(tenant, kenyanNumber());
    const raw = JSON.stringify(statusNotification([{ id: message.provider_id, status: 'failed', errors: [{ code: 131026, title: 'Message undeliverable' }], biz_opaque_callback_data: message.id }]));
    expect(expectStatus(await post(raw, hubSignature(raw)), 200).outcomes).toEqual(['applied']);
    expect(await messageOf(t, tenant.keys.live.secret, message.id)).toMatchObject({ status: 'failed', error_code: 'not_on_whatsapp' });
    expect((await eventsAbout(t, message.id)).map((e) => e.type)).toEqual(['messaging.message.failed']);
  });

  it('answers the subscription check with the challenge only for the verify token', async () => {
    const ok = await t.http().get(PATH).query({ 'hub.mode': 'subscribe', 'hub.verify_token': WA_VERIFY_TOKEN, 'hub.challenge': '1158201444' });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('1158201444');
    expectError(await t.http().get(PATH).query({ 'hub.mode': 'subscribe', 'hub.verify_token': 'wrong-token', 'hub.challenge': '1' }), 401, 'message_callback_refused');
    expectError(await t.http().get('/api/v1/messaging/africastalking/callbacks/default'), 404, 'resource_not_found');
  });

  it('lists by status, with codes redacted in live mode', async () => {
    const tenant = await t.tenant();
    const phone = kenyanNumber();
    const message = await requestCode(tenant, phone);
    const listed = expectStatus(await t.http().get('/v1/messages').query({ status: 'sent', to: phone }).set(bearer(tenant.keys.live.secret)), 200).data;
    expect(listed.map((m: { id: string }) => m.id)).toEqual([message.id]);
    expect(listed[0].body).toBe('[redacted]');
  });
});

describe('hostile callbacks', () => {
  it('answers odd paths, queries and bodies with the error shape, never a 5xx', async () => {
    const valid = (raw: string) => post(raw, hubSignature(raw));
    const answers = [
      await valid('[]'),
      await valid('{"object":"whatsapp_business_account","entry":"x"}'),
      await valid('{"object":"whatsapp_business_account","entry":[{"changes":[{"value":{"statuses":[{"id":7,"status":{}}]}}]}]}'),
      await valid('null'),
      await post('x'.repeat(300 * 1024), hubSignature('x'.repeat(300 * 1024))),
      await t.http().post('/api/v1/messaging/africastalking/callbacks/default?secret[a]=1').type('form').send('id=1&status=Success'),
      await t.http().post('/api/v1/messaging/africastalking/callbacks/default?secret=1&secret=2').type('form').send('id=1&status=Success'),
      await t.http().post('/api/v1/messaging/%00/callbacks/%E0%A4%A').send('{}'),
      await t.http().get(`${PATH}?hub.mode=subscribe&hub.verify_token[x]=1&hub.challenge=1`),
      await t.http().get(`${PATH}?hub.mode=subscribe&hub.verify_token=${WA_VERIFY_TOKEN}&hub.challenge=%3Cscript%3E`),
    ];
    for (const res of answers) {
      expect(res.status, res.text).toBeLessThan(500);
      if (res.status >= 400) expect(res.body.error?.code, res.text).toEqual(expect.any(String));
    }
  });
});
