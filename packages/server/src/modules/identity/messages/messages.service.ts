import { sql } from 'kysely';
import type { CursorPageQuery, Message, MessageChannelName } from '@svc/contract';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { MessageRow } from '../../../db/identity.schema';
import { channelAvailable } from './message-channels';

export interface NewMessage {
  channel: MessageChannelName;
  to: string;
  template: string;
  subject?: string | null;
  body: string;
  /** Holds a code or a link: redacted when read in live mode. */
  sensitive?: boolean;
  related?: string[];
}

/**
 * Writes a message to the outbox in the caller's transaction, so it exists only if the change that caused it
 * commits. Test mode sends nothing (`captured`); in live mode a channel without a provider fails the message.
 */
export async function writeMessage(db: Executor, scope: Scope, message: NewMessage): Promise<MessageRow> {
  const available = channelAvailable(scope.livemode, message.channel);
  return scoped(db, scope)
    .insertInto('messages', {
      id: newId('message'),
      channel: message.channel,
      to: message.to,
      template: message.template,
      subject: message.subject ?? null,
      body: message.body,
      sensitive: message.sensitive ?? false,
      status: !scope.livemode ? 'captured' : available ? 'queued' : 'failed',
      error_code: available ? null : 'channel_not_configured',
      related: message.related ?? [],
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function serializeMessage(row: MessageRow): Message {
  return {
    id: row.id,
    object: 'message',
    livemode: row.livemode,
    channel: row.channel,
    to: row.to,
    template: row.template,
    subject: row.subject,
    body: row.livemode && row.sensitive ? '[redacted]' : row.body,
    status: row.status,
    error_code: row.error_code,
    related: row.related,
    created_at: new Date(row.created_at).toISOString(),
  };
}

export interface MessageFilters {
  to?: string;
  channel?: MessageChannelName;
  template?: string;
  related?: string;
}

export async function listMessages(db: Executor, scope: Scope, filters: MessageFilters, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('messages').selectAll();
  if (filters.to) q = q.where('to', '=', filters.to);
  if (filters.channel) q = q.where('channel', '=', filters.channel);
  if (filters.template) q = q.where('template', '=', filters.template);
  if (filters.related) q = q.where(sql<boolean>`related @> array[${filters.related}]::text[]`);
  const result = await paginate(q, 'messages.id', page);
  return { ...result, data: result.data.map(serializeMessage) };
}

export async function getMessage(db: Executor, scope: Scope, id: string): Promise<Message> {
  const row = isIdOf('message', id) ? await scoped(db, scope).selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw ApiError.notFound('message', id);
  return serializeMessage(row);
}

/** `503 channel_unavailable` when a code cannot go out on this channel here; the failed message stays in the outbox. */
export async function requireChannel(db: Executor, scope: Scope, message: NewMessage): Promise<void> {
  if (channelAvailable(scope.livemode, message.channel)) return;
  await writeMessage(db, scope, message);
  throw ApiError.of('channel_unavailable', { message: `No ${message.channel} provider is configured for live mode.` });
}
