import type { Insertable, Transaction } from 'kysely';
import { API_VERSION, isEventType, type EventEnvelope, type EventType } from '@svc/contract';
import type { DB } from '../../db/schema';
import type { EventLogTable } from '../../db/events-webhooks.schema';
import { newId } from '../ids';
import { eventRequestOf } from '../request-context';
import type { Scope } from '../scope';
import { stripSecrets } from './strip-secrets';

export interface EmitEventInput {
  type: EventType;
  /** ID of the resource the event is about. */
  subject: string;
  /** The resource as the API returns it; secrets are removed here. */
  object: Record<string, unknown>;
  /** Old values of the fields that changed. */
  previousAttributes?: Record<string, unknown>;
}

/** The envelope of a new event: secrets stripped, the scope's request (the causing one) attached. */
export function envelopeOf(scope: Scope, event: EmitEventInput): EventEnvelope {
  if (!isEventType(event.type)) throw new Error(`emitEvent: '${event.type}' is not declared in the contract's events.ts`);
  const objectType = typeof event.object.object === 'string' ? event.object.object : undefined;
  const envelope: EventEnvelope = {
    id: newId('event'),
    object: 'event',
    type: event.type,
    api_version: API_VERSION,
    created_at: new Date().toISOString(),
    livemode: scope.livemode,
    tenant: scope.tenantId,
    subject: event.subject,
    data: {
      object: stripSecrets(event.object),
      previous_attributes: event.previousAttributes ? stripSecrets(event.previousAttributes, objectType) : null,
    },
    request: eventRequestOf(scope.request),
  };
  return envelope;
}

/** The event's row in `event_log`. */
export function eventLogRow(envelope: EventEnvelope): Insertable<EventLogTable> {
  return {
    id: envelope.id,
    tenant_id: envelope.tenant,
    livemode: envelope.livemode,
    type: envelope.type,
    subject: envelope.subject,
    envelope: JSON.stringify(envelope),
    created_at: new Date(envelope.created_at),
  };
}

/** Builds the envelope and writes it to the event log, delivering it nowhere (the caller chooses where). */
export async function recordEvent(trx: Transaction<DB>, scope: Scope, event: EmitEventInput): Promise<EventEnvelope> {
  const envelope = envelopeOf(scope, event);
  await trx.insertInto('event_log').values(eventLogRow(envelope)).execute();
  return envelope;
}
