import type { Transaction } from 'kysely';
import type { EventEnvelope } from '@svc/contract';
import type { DB } from '../../db/schema';
import { deliverToSubscribers } from '../../modules/webhooks/enqueue-deliveries';
import type { Scope } from '../scope';
import { recordEvent, type EmitEventInput } from './record-event';

export type { EmitEventInput };

/**
 * Records an event and queues its webhook deliveries inside the caller's transaction, so the event exists
 * exactly when the state change it describes commits: a rollback emits nothing, a commit loses nothing.
 * Call it from the service that owns the transaction, after the change:
 *
 *   await emitEvent(trx, scope, { type: 'streams.live_stream.updated', subject: stream.id,
 *     object: serializeLiveStream(row), previousAttributes: { status: 'idle' } });
 *
 * `object` passes through the one secret-stripping serializer; the causing request's id and idempotency
 * key come from the request context.
 */
export async function emitEvent(trx: Transaction<DB>, scope: Scope, event: EmitEventInput): Promise<EventEnvelope> {
  const envelope = await recordEvent(trx, scope, event);
  await deliverToSubscribers(trx, scope, envelope);
  return envelope;
}
