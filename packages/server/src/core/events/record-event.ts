import type { Transaction } from 'kysely';
import { API_VERSION, isEventType, type EventEnvelope, type EventType } from '@svc/contract';
import type { DB } from '../../db/schema';
import { newId } from '../ids';
import { currentRequest } from '../request-context';
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

/** Builds the envelope (secrets stripped, causing request attached) and writes it to the event log. */
export async function recordEvent(trx: Transaction<DB>, scope: Scope, event: EmitEventInput): Promise<EventEnvelope> {
  if (!isEventType(event.type)) throw new Error(`emitEvent: '${event.type}' is not declared in the contract's events.ts`);
  const objectType = typeof event.object.object === 'string' ? event.object.object : undefined;
  const createdAt = new Date();
  const envelope: EventEnvelope = {
    id: newId('event'),
    object: 'event',
    type: event.type,
    api_version: API_VERSION,
    created_at: createdAt.toISOString(),
    livemode: scope.livemode,
    tenant: scope.tenantId,
    subject: event.subject,
    data: {
      object: stripSecrets(event.object),
      previous_attributes: event.previousAttributes ? stripSecrets(event.previousAttributes, objectType) : null,
    },
    request: currentRequest(),
  };
  await trx
    .insertInto('event_log')
    .values({
      id: envelope.id,
      tenant_id: scope.tenantId,
      livemode: scope.livemode,
      type: envelope.type,
      subject: envelope.subject,
      envelope: JSON.stringify(envelope),
      created_at: createdAt,
    })
    .execute();
  return envelope;
}
