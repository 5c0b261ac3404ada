import { eventTypeMatches, WEBHOOK_LIMITS, type ReplayWebhookEventsSchema } from '@svc/contract';
import type { z } from 'zod';
import { recordEvent } from '../../core/events/record-event';
import { ApiError } from '../../core/errors';
import { newId } from '../../core/ids';
import { scoped, type Scope } from '../../core/scope';
import type { Database, Executor } from '../../db/database';
import { queueDeliveries } from './enqueue-deliveries';
import { getEndpointRow } from './webhook-endpoints.service';
import { serializeWebhookEndpoint, type WebhookEndpointRow } from './webhook-endpoints.serializer';

type ReplayInput = z.infer<typeof ReplayWebhookEventsSchema>;

async function enabledEndpoint(db: Executor, scope: Scope, id: string): Promise<WebhookEndpointRow> {
  const row = await getEndpointRow(db, scope, id);
  if (row.status !== 'enabled') throw ApiError.of('webhook_endpoint_disabled');
  return row;
}

/** Listed events exactly (each must exist in this environment), or the range's events the endpoint subscribes to. */
async function eventsToReplay(db: Executor, scope: Scope, endpoint: WebhookEndpointRow, input: ReplayInput): Promise<string[]> {
  const events = scoped(db, scope).selectFrom('event_log').select(['id', 'type']);
  if (input.event_ids) {
    const ids = [...new Set(input.event_ids)];
    const found = new Set((await events.where('id', 'in', ids).execute()).map((e) => e.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw ApiError.of('resource_not_found', { message: `No such event: ${missing.join(', ')}.`, param: 'event_ids', details: { missing } });
    }
    return ids;
  }
  const [from, to] = [new Date(input.created_from!), new Date(input.created_to!)];
  if (from > to) {
    throw ApiError.of('validation_failed', { param: 'created_to', details: { created_to: ['Must not be before `created_from`.'] } });
  }
  const rows = await events.where('created_at', '>=', from).where('created_at', '<=', to).orderBy('id').execute();
  const matching = rows.filter((e) => endpoint.enabled_events.some((f) => eventTypeMatches(f, e.type)));
  if (matching.length > WEBHOOK_LIMITS.maxReplayEvents) {
    throw ApiError.of('validation_failed', {
      message: `The range holds ${matching.length} events; replay at most ${WEBHOOK_LIMITS.maxReplayEvents} at a time.`,
      param: 'created_from',
      details: { created_from: ['Narrow the time range.'] },
    });
  }
  return matching.map((e) => e.id);
}

/** Sends past events again with their original ids; each gets a new delivery with the usual retries. */
export async function replayEvents(db: Database, scope: Scope, endpointId: string, input: ReplayInput) {
  return db.transaction().execute(async (trx) => {
    const endpoint = await enabledEndpoint(trx, scope, endpointId);
    const eventIds = await eventsToReplay(trx, scope, endpoint, input);
    await queueDeliveries(
      trx,
      scope,
      eventIds.map((eventId) => ({ id: newId('webhook_delivery'), endpoint_id: endpoint.id, event_id: eventId, kind: 'replay' as const })),
    );
    return { object: 'webhook_replay' as const, webhook_endpoint: endpoint.id, event_count: eventIds.length };
  });
}

/** Records a `platform.webhook_endpoint.tested` event and delivers it to this endpoint only. */
export async function sendTestEvent(db: Database, scope: Scope, endpointId: string) {
  return db.transaction().execute(async (trx) => {
    const endpoint = await enabledEndpoint(trx, scope, endpointId);
    const event = await recordEvent(trx, scope, {
      type: 'platform.webhook_endpoint.tested',
      subject: endpoint.id,
      object: serializeWebhookEndpoint(endpoint),
    });
    await queueDeliveries(trx, scope, [{ id: newId('webhook_delivery'), endpoint_id: endpoint.id, event_id: event.id, kind: 'test' }]);
    return event;
  });
}
