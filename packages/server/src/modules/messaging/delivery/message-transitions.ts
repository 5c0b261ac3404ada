import type { Transaction, Updateable } from 'kysely';
import { emitEvent } from '../../../core/events/emit-event';
import type { MessageRow, MessagesTable } from '../../../db/messaging.schema';
import type { DB } from '../../../db/schema';
import { serializeMessage } from '../outbox/messages.service';

const scopeOf = (row: MessageRow) => ({ tenantId: row.tenant_id, livemode: row.livemode });

/**
 * Moves a message from one of `from` to a new status in one conditional update, and emits
 * `messaging.message.delivered` or `.failed` with it. Answers the new row, or `undefined` when the message
 * was no longer in `from` (another worker, a replayed receipt): then nothing changes and nothing is emitted.
 */
export async function moveMessage(
  trx: Transaction<DB>,
  id: string,
  from: readonly MessageRow['status'][],
  set: Updateable<MessagesTable>,
  extra: { attempts?: number } = {},
): Promise<MessageRow | undefined> {
  let q = trx.updateTable('messages').set(set).where('id', '=', id).where('status', 'in', [...from]);
  if (extra.attempts !== undefined) q = q.where('attempts', '=', extra.attempts);
  const row = await q.returningAll().executeTakeFirst();
  if (!row) return undefined;
  if (row.status === 'delivered' || row.status === 'failed') {
    await emitEvent(trx, scopeOf(row), { type: `messaging.message.${row.status}`, subject: row.id, object: serializeMessage(row) });
  }
  return row;
}
