import type { ModuleDefinition } from '../../core/modules/module-definition';
import type { AppContext } from '../../core/context';
import { mountMessagingCallbacks } from './callbacks/callbacks.receiver';
import type { MessageChannel } from './channels/message-channel';
import { channelsFromConfig } from './channels/message-channels';
import { messagingDeps } from './delivery/messaging-deps';
import { OutboxWorker } from './delivery/outbox-worker';
import { messageChannelsPart } from './messaging-parts';
import { purgeMessageBodiesJob } from './outbox/purge-message-bodies.job';
import { recipientRoles, type RecipientResolver } from './outbox/recipient-roles';

/**
 * Messaging: the outbox every product writes to (`writeMessage`), its delivery through the live channels
 * (email over SMTP, SMS through Africa's Talking, WhatsApp), retries, the providers' delivery callbacks and
 * the send cap. Delivery results are the events `messaging.message.delivered` and `.failed`, with the
 * message's `related` ids: other modules react to them in their `onEvents`.
 */
export const messagingModule: ModuleDefinition = {
  name: 'messaging',
  setup: (ctx) => messageChannelsPart.set(ctx, channelsFromConfig(ctx.config)),
  // Delivery receipts: the WhatsApp signature covers the raw bytes.
  mountRaw: (app, ctx, middleware) => mountMessagingCallbacks(app, ctx, middleware),
  jobs: (ctx) => [purgeMessageBodiesJob(ctx)],
  worker: (ctx) => {
    const worker = new OutboxWorker(messagingDeps(ctx));
    return {
      jobs: [worker.job()],
      start: () => worker.start(),
      stop: () => worker.stop(),
      close: () => messageChannelsPart.of(ctx).close(),
    };
  },
};

/** Names who a role-addressed notice (`email_outbox.recipients`) goes to: the module that knows the people registers it. */
export const registerRecipientRole = (ctx: Pick<AppContext, 'parts'>, role: string, resolve: RecipientResolver) => recipientRoles(ctx).set(role, resolve);

/** Adds or replaces the live-mode adapter of a channel (an operator's own provider). */
export const registerMessageChannel = (ctx: AppContext, adapter: MessageChannel) => messageChannelsPart.of(ctx).register(adapter);

export { ChannelFailure, type MessageChannel, type OutgoingMessage, type SendReceipt } from './channels/message-channel';
export { writeMessage, writeMessages, listMessages, getMessage, serializeMessage, type NewMessage, type MessageFilters } from './outbox/messages.service';
export { requireChannel, resendMessage, channelAvailable } from './outbox/outbox.service';
export { OutboxWorker } from './delivery/outbox-worker';
export { messagingDeps, type MessagingDeps } from './delivery/messaging-deps';
