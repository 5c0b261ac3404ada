import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/boot/config';
import { channelsFromConfig } from '../../src/modules/messaging/channels/message-channels';

describe('messaging configuration', () => {
  it('stops the start on half a channel or a bad value, listing each problem', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.test:587' })).toThrow(/SMTP_FROM: SMTP_FROM is required with SMTP_URL/);
    expect(() => loadConfig({ SMTP_URL: 'https://mail.example.test', SMTP_FROM: 'a@b.test' })).toThrow(/SMTP_URL must be an smtp/);
    expect(() => loadConfig({ AFRICASTALKING_API_KEY: 'key' })).toThrow(/AFRICASTALKING_USERNAME is required/);
    expect(() => loadConfig({ WHATSAPP_PHONE_NUMBER_ID: 'abc', WHATSAPP_ACCESS_TOKEN: 'x'.repeat(20) })).toThrow(/WHATSAPP_PHONE_NUMBER_ID is the numeric id/);
    expect(() => loadConfig({ SVC_MESSAGES_PER_HOUR: '0' })).toThrow(/SVC_MESSAGES_PER_HOUR/);
  });

  it('configures exactly the channels whose variables are set', () => {
    const none = channelsFromConfig(loadConfig({}));
    expect([none.available(true, 'email'), none.available(true, 'sms'), none.available(true, 'whatsapp'), none.available(false, 'sms')]).toEqual([false, false, false, true]);
    const all = channelsFromConfig(
      loadConfig({
        SMTP_URL: 'smtps://user:pass@mail.example.test:465',
        SMTP_FROM: 'Svc <no-reply@example.test>',
        AFRICASTALKING_USERNAME: 'sandbox',
        AFRICASTALKING_API_KEY: 'key',
        WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
        WHATSAPP_ACCESS_TOKEN: 'EAAG0123456789abcdef',
      }),
    );
    expect([all.of('email')?.provider, all.of('sms')?.provider, all.of('whatsapp')?.provider]).toEqual(['smtp', 'africastalking', 'whatsapp']);
    all.close();
    expect(loadConfig({}).SVC_MESSAGES_PER_HOUR).toBe(1000);
  });
});
