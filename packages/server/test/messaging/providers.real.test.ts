import { describe, expect, it } from 'vitest';
import { africasTalkingChannel } from '../../src/modules/messaging/channels/africas-talking.channel';
import { smtpChannel } from '../../src/modules/messaging/channels/smtp.channel';
import { whatsappChannel } from '../../src/modules/messaging/channels/whatsapp.channel';
import type { OutgoingMessage } from '../../src/modules/messaging';

/**
 * The adapters against the real providers, opt-in, each suite on its own variables (they send real messages):
 *   email:    SVC_LIVE_SMTP_URL, SVC_LIVE_SMTP_FROM, SVC_LIVE_EMAIL_TO
 *   SMS:      SVC_LIVE_AT_USERNAME, SVC_LIVE_AT_API_KEY, SVC_LIVE_SMS_TO (with `sandbox`, the sandbox simulator)
 *   WhatsApp: SVC_LIVE_WA_PHONE_NUMBER_ID, SVC_LIVE_WA_ACCESS_TOKEN, SVC_LIVE_WA_TO, and optionally
 *             SVC_LIVE_WA_UTILITY_TEMPLATE (default `notification`), SVC_LIVE_WA_AUTH_TEMPLATE (default `sign_in_code`)
 */
const env = process.env;
const suites = {
  email: ['SVC_LIVE_SMTP_URL', 'SVC_LIVE_SMTP_FROM', 'SVC_LIVE_EMAIL_TO'],
  sms: ['SVC_LIVE_AT_USERNAME', 'SVC_LIVE_AT_API_KEY', 'SVC_LIVE_SMS_TO'],
  whatsapp: ['SVC_LIVE_WA_PHONE_NUMBER_ID', 'SVC_LIVE_WA_ACCESS_TOKEN', 'SVC_LIVE_WA_TO'],
};
const missing = (names: string[]) => names.filter((n) => !env[n]);
for (const [name, vars] of Object.entries(suites)) {
  if (missing(vars).length > 0) it.skip(`real ${name} provider suite skipped: set ${missing(vars).join(', ')} to run it`, () => {});
}

const message = (to: string, channel: OutgoingMessage['channel'], params: Record<string, string> = {}): OutgoingMessage => ({
  id: `msg_live${Date.now()}`,
  channel,
  to,
  template: 'live_check',
  subject: 'Svc live check',
  body: `Svc live check at ${new Date().toISOString()}. Link: https://example.com/check`,
  params,
});

describe.runIf(missing(suites.email).length === 0)('email on the real SMTP server', () => {
  it('is taken, with its Message-ID as the provider id', async () => {
    const channel = smtpChannel(env.SVC_LIVE_SMTP_URL!, env.SVC_LIVE_SMTP_FROM!);
    const m = message(env.SVC_LIVE_EMAIL_TO!, 'email');
    const receipt = await channel.send(m, m.id);
    expect(receipt.providerId).toMatch(new RegExp(`^<${m.id}@`));
    channel.close?.();
  });
});

describe.runIf(missing(suites.sms).length === 0)("SMS on Africa's Talking", () => {
  it('is taken with a messageId', async () => {
    const channel = africasTalkingChannel({ username: env.SVC_LIVE_AT_USERNAME!, apiKey: env.SVC_LIVE_AT_API_KEY!, senderId: env.SVC_LIVE_AT_SENDER_ID });
    const m = message(env.SVC_LIVE_SMS_TO!, 'sms');
    expect((await channel.send(m, m.id)).providerId).toMatch(/\S+/);
  });
});

describe.runIf(missing(suites.whatsapp).length === 0)('WhatsApp on the Cloud API', () => {
  const channel = () =>
    whatsappChannel({
      phoneNumberId: env.SVC_LIVE_WA_PHONE_NUMBER_ID!,
      accessToken: env.SVC_LIVE_WA_ACCESS_TOKEN!,
      apiUrl: 'https://graph.facebook.com/v21.0',
      authTemplate: env.SVC_LIVE_WA_AUTH_TEMPLATE ?? 'sign_in_code',
      utilityTemplate: env.SVC_LIVE_WA_UTILITY_TEMPLATE ?? 'notification',
      language: env.SVC_LIVE_WA_LANGUAGE ?? 'en',
    });
  it('takes the utility template and the authentication template', async () => {
    const plain = message(env.SVC_LIVE_WA_TO!, 'whatsapp');
    expect((await channel().send(plain, plain.id)).providerId).toMatch(/^wamid\./);
    const code = message(env.SVC_LIVE_WA_TO!, 'whatsapp', { code: '123456' });
    expect((await channel().send(code, code.id)).providerId).toMatch(/^wamid\./);
  });
});
