import type { Message } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import { messageChannelsPart } from '../messaging-parts';
import { findMessage, serializeMessage, writeFailedMessage, writeMessage, type NewMessage } from './messages.service';
import { checkSendCap } from './send-cap';

/** Whether `channel` can carry a message in this environment: test mode captures everything. */
export const channelAvailable = (ctx: AppContext, livemode: boolean, channel: NewMessage['channel']) =>
  messageChannelsPart.of(ctx).available(livemode, channel);

/**
 * Before a code is made: `503 channel_unavailable` when it cannot go out on its channel here (the failed
 * message stays in the outbox), `429 send_cap_exceeded` past the tenant's live hourly cap.
 */
export async function requireChannel(ctx: AppContext, scope: Scope, message: NewMessage): Promise<void> {
  if (!scope.livemode) return;
  if (!channelAvailable(ctx, true, message.channel)) {
    await writeFailedMessage(ctx.db, scope, message, 'channel_not_configured');
    throw ApiError.of('channel_unavailable', { message: `No ${message.channel} provider is configured for live mode.` });
  }
  await checkSendCap(ctx, scope.tenantId);
}

/**
 * Sends a message again as a new one, whatever became of the first. Codes and links are never resent: a new
 * one is requested instead, so an old code cannot come back to life.
 */
export async function resendMessage(ctx: AppContext, scope: Scope, id: string): Promise<Message> {
  const original = await findMessage(ctx.db, scope, id);
  if (original.sensitive) throw ApiError.of('message_not_resendable', { param: 'id' });
  if (scope.livemode) await checkSendCap(ctx, scope.tenantId);
  const copy: NewMessage = {
    channel: original.channel,
    to: original.to,
    template: original.template,
    subject: original.subject,
    body: original.body,
    related: original.related,
    params: original.params,
    brand: original.brand as NewMessage['brand'],
  };
  // Without a provider the copy fails in the outbox worker, as any live message does.
  return serializeMessage(await writeMessage(ctx.db, scope, copy, original.id));
}
