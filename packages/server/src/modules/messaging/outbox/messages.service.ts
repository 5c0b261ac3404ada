import { sql, type Transaction } from 'kysely';
import type { CursorPageQuery, EffectiveBranding, Message, MessageChannelName, MessageStatusName } from '@svc/contract';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { MessageRow } from '../../../db/messaging.schema';
import type { DB } from '../../../db/schema';
import { jobOf, sendInTransaction } from '../../../jobs/send-in-transaction';
import { deliverMessageJob } from '../delivery/deliver-message.job';
import { magicFailure } from './magic-recipients';

export interface NewMessage {
  channel: MessageChannelName;
  to: string;
  template: string;
  subject?: string | null;
  body: string;
  /** Holds a code or a link: redacted when read in live mode, never resent. */
  sensitive?: boolean;
  /** IDs of what the message is about (customer, member, order, ticket): receipts are reported with them. */
  related?: string[];
  /** What a provider's approved template takes besides the text: `code` for a sign-in code. */
  params?: Record<string, string>;
  /** A code's expiry: the message is cancelled rather than sent after it. */
  expiresAt?: Date | null;
  /** The tenant's (or organization's) brand: the text is signed with its name, an email dressed in it. */
  brand?: EffectiveBranding | null;
}

/** The text as sent: signed with the brand's name, so no message speaks for the service itself. */
function signed(message: NewMessage): string {
  const signature = message.brand ? `\n— ${message.brand.display_name}` : '';
  return signature && !message.body.endsWith(signature) ? `${message.body}${signature}` : message.body;
}

async function inTransaction<T>(db: Executor, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<DB>) : db.transaction().execute(work);
}

/** A new message's columns besides its tenant and environment. */
const messageColumns = (message: NewMessage, status: 'captured' | 'queued' | 'failed', errorCode: string | null, resentFrom: string | null, now: Date) => ({
  id: newId('message'),
  channel: message.channel,
  to: message.to,
  template: message.template,
  subject: message.subject ?? null,
  body: signed(message),
  brand: message.brand ? JSON.stringify(message.brand) : null,
  sensitive: message.sensitive ?? false,
  status,
  error_code: errorCode,
  related: message.related ?? [],
  params: JSON.stringify(message.params ?? {}),
  expires_at: message.expiresAt ?? null,
  job_queued_at: status === 'queued' ? now : null,
  failed_at: status === 'failed' ? now : null,
  next_attempt_at: null,
  lease_until: null,
  provider: null,
  provider_id: null,
  sent_at: null,
  delivered_at: null,
  resent_from: resentFrom,
});

function insertMessage(db: Executor, scope: Scope, message: NewMessage, status: 'captured' | 'queued' | 'failed', errorCode: string | null, resentFrom: string | null = null) {
  return scoped(db, scope)
    .insertInto('messages', messageColumns(message, status, errorCode, resentFrom, new Date()))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Writes a message to the outbox in the caller's transaction, so it exists only if the change that caused it
 * commits, and queues its delivery job in the same transaction (one is opened when `db` is not one). Test
 * mode sends nothing: the message is `captured` (a magic recipient's job then fails it on purpose).
 */
export async function writeMessage(db: Executor, scope: Scope, message: NewMessage, resentFrom?: string): Promise<MessageRow> {
  return inTransaction(db, async (trx) => {
    const row = await insertMessage(trx, scope, message, scope.livemode ? 'queued' : 'captured', null, resentFrom ?? null);
    if (scope.livemode || magicFailure(row.channel, row.to)) await sendInTransaction(trx, [jobOf(deliverMessageJob, { messageId: row.id })]);
    return row;
  });
}

/**
 * Writes several messages as `writeMessage` does, in one insert (and one enqueue for their delivery jobs):
 * for a change that causes many at once (a paid order's tickets and receipt). `db` is the caller's transaction.
 */
export async function writeMessages(trx: Transaction<DB>, scope: Scope, messages: readonly NewMessage[]): Promise<void> {
  if (messages.length === 0) return;
  const status = scope.livemode ? 'queued' : 'captured';
  const now = new Date();
  const rows = await trx
    .insertInto('messages')
    .values(
      messages.map((message) => ({ tenant_id: scope.tenantId, livemode: scope.livemode, ...messageColumns(message, status, null, null, now) })),
    )
    .returning(['id', 'channel', 'to'])
    .execute();
  const jobs = rows.filter((row) => scope.livemode || magicFailure(row.channel, row.to)).map((row) => jobOf(deliverMessageJob, { messageId: row.id }));
  if (jobs.length > 0) await sendInTransaction(trx, jobs);
}

/**
 * A message that cannot go out at all (no provider for its channel in live mode), kept in the outbox as
 * failed; a code or link in it is not kept, since it will never be sent.
 */
export async function writeFailedMessage(db: Executor, scope: Scope, message: NewMessage, errorCode: string): Promise<MessageRow> {
  const kept = message.sensitive ? { ...message, body: '[redacted]', params: {}, brand: null } : message;
  return insertMessage(db, scope, kept, 'failed', errorCode);
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

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
    attempts: row.attempts,
    next_attempt_at: row.status === 'queued' ? iso(row.next_attempt_at) : null,
    provider_id: row.provider_id,
    sent_at: iso(row.sent_at),
    delivered_at: iso(row.delivered_at),
    failed_at: iso(row.failed_at),
    resent_from: row.resent_from,
    created_at: new Date(row.created_at).toISOString(),
  };
}

export interface MessageFilters {
  to?: string;
  channel?: MessageChannelName;
  status?: MessageStatusName;
  template?: string;
  related?: string;
}

export async function listMessages(db: Executor, scope: Scope, filters: MessageFilters, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('messages').selectAll();
  if (filters.to) q = q.where('to', '=', filters.to);
  if (filters.channel) q = q.where('channel', '=', filters.channel);
  if (filters.status) q = q.where('status', '=', filters.status);
  if (filters.template) q = q.where('template', '=', filters.template);
  if (filters.related) q = q.where(sql<boolean>`related @> array[${filters.related}]::text[]`);
  const result = await paginate(q, 'messages.id', page);
  return { ...result, data: result.data.map(serializeMessage) };
}

export async function findMessage(db: Executor, scope: Scope, id: string): Promise<MessageRow> {
  const row = isIdOf('message', id) ? await scoped(db, scope).selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw ApiError.notFound('message', id);
  return row;
}

export async function getMessage(db: Executor, scope: Scope, id: string): Promise<Message> {
  return serializeMessage(await findMessage(db, scope, id));
}
