import type { MessageChannelName } from '@svc/contract';

/** A message on its way out, as a provider takes it. */
export interface OutgoingMessage {
  id: string;
  channel: MessageChannelName;
  to: string;
  subject: string | null;
  body: string;
}

/**
 * A provider that delivers one channel in live mode (SMS gateway, chat app, SMTP). None is configured yet:
 * the messaging product adds them here; until then live-mode messages fail with `channel_not_configured`.
 */
export interface MessageChannel {
  channel: MessageChannelName;
  send(message: OutgoingMessage): Promise<void>;
}

const providers = new Map<MessageChannelName, MessageChannel>();

/** Registers the live-mode provider of a channel. */
export function registerMessageChannel(provider: MessageChannel): void {
  providers.set(provider.channel, provider);
}

/** Whether a message on `channel` can go out in this environment: test mode captures every message. */
export function channelAvailable(livemode: boolean, channel: MessageChannelName): boolean {
  return !livemode || providers.has(channel);
}
