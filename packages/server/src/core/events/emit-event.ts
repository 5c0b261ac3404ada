import type { Transaction } from 'kysely';
import type { EventEnvelope } from '@svc/contract';
import type { DB } from '../../db/schema';
import { publishEvents, type Notification, type PreparedEvent } from './event-subscribers';
import type { Scope } from '../scope';
import { envelopeOf, type EmitEventInput } from './record-event';

export type { EmitEventInput, PreparedEvent };
export { envelopeOf };

export interface EmitOptions {
  /** A `NOTIFY` to send with the event (a cache every process keeps of the changed object), in the same statement. */
  notify?: Notification;
}

/**
 * Records an event (and so queues its webhook deliveries: the webhooks module subscribes) inside the caller's transaction, so the event exists
 * exactly when the state change it describes commits: a rollback emits nothing, a commit loses nothing.
 * Call it from the service that owns the transaction, after the change:
 *
 *   await emitEvent(trx, scope, { type: 'streams.live_stream.updated', subject: stream.id,
 *     object: serializeLiveStream(row), previousAttributes: { status: 'idle' } });
 *
 * `object` passes through the one secret-stripping serializer; the causing request's id and idempotency
 * key come from the scope (`Scope.request`).
 */
export async function emitEvent(trx: Transaction<DB>, scope: Scope, event: EmitEventInput, options: EmitOptions = {}): Promise<EventEnvelope> {
  const envelope = envelopeOf(scope, event);
  await publishEvents(trx, [{ scope, envelope, notify: options.notify }]);
  return envelope;
}

/**
 * Records events whose envelopes were built earlier (`envelopeOf`, each with its causing request) and
 * queues their deliveries, all in one statement plus the deliveries: for writes of many requests made together.
 */
export async function emitPreparedEvents(trx: Transaction<DB>, events: readonly PreparedEvent[]): Promise<void> {
  if (events.length > 0) await publishEvents(trx, events);
}
