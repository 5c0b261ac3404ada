import type { MessageChannelName } from '@svc/contract';
import type { Config } from '../../../boot/config';
import { africasTalkingChannel } from './africas-talking.channel';
import type { MessageChannel } from './message-channel';
import { smtpChannel } from './smtp.channel';
import { whatsappChannel } from './whatsapp.channel';

/** The live-mode adapter of each channel in one server: the configured ones, then any the operator registers. */
export class MessageChannels {
  private readonly byChannel = new Map<MessageChannelName, MessageChannel>();

  register(adapter: MessageChannel): void {
    this.byChannel.get(adapter.channel)?.close?.();
    this.byChannel.set(adapter.channel, adapter);
  }

  of(channel: MessageChannelName): MessageChannel | undefined {
    return this.byChannel.get(channel);
  }

  /** Whether a message on `channel` can go out in this environment: test mode captures every message. */
  available(livemode: boolean, channel: MessageChannelName): boolean {
    return !livemode || this.byChannel.has(channel);
  }

  close(): void {
    for (const adapter of this.byChannel.values()) adapter.close?.();
  }
}

/** The channels the environment configures (validated at start by `loadConfig`). */
export function channelsFromConfig(config: Config): MessageChannels {
  const channels = new MessageChannels();
  if (config.SMTP_URL && config.SMTP_FROM) channels.register(smtpChannel(config.SMTP_URL, config.SMTP_FROM));
  if (config.AFRICASTALKING_USERNAME && config.AFRICASTALKING_API_KEY) {
    channels.register(
      africasTalkingChannel({
        username: config.AFRICASTALKING_USERNAME,
        apiKey: config.AFRICASTALKING_API_KEY,
        senderId: config.AFRICASTALKING_SENDER_ID,
        apiUrl: config.AFRICASTALKING_API_URL,
      }),
    );
  }
  if (config.WHATSAPP_PHONE_NUMBER_ID && config.WHATSAPP_ACCESS_TOKEN) {
    channels.register(
      whatsappChannel({
        phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID,
        accessToken: config.WHATSAPP_ACCESS_TOKEN,
        apiUrl: config.WHATSAPP_API_URL,
        authTemplate: config.WHATSAPP_AUTH_TEMPLATE,
        utilityTemplate: config.WHATSAPP_UTILITY_TEMPLATE,
        language: config.WHATSAPP_TEMPLATE_LANGUAGE,
      }),
    );
  }
  return channels;
}
