import type { Transaction } from 'kysely';
import { eventTypeMatches } from '@svc/contract';
import type { DB } from '../../db/schema';
import { newId } from '../../core/ids';
import type { Scope } from '../../core/scope';
import { QUEUE_NAMES } from '../../jobs/queue-names';
import { sendInTransaction } from '../../jobs/send-in-transaction';
import { findEnabledEndpoints, insertQueuedDeliveries, type NewDelivery } from './webhook-deliveries.repository';

export interface DeliverWebhookJob {
  deliveryId: string;
}

/** Queues a first attempt of each delivery, in the caller's transaction. */
export async function queueDeliveries(trx: Transaction<DB>, scope: Scope, rows: readonly NewDelivery[]): Promise<void> {
  await insertQueuedDeliveries(trx, scope, rows);
  await sendInTransaction(
    trx,
    rows.map((r) => ({ name: QUEUE_NAMES.deliverWebhook, data: { deliveryId: r.id } satisfies DeliverWebhookJob })),
  );
}

/** One delivery per enabled endpoint of the event's tenant and environment whose `enabled_events` match its type. */
export async function deliverToSubscribers(trx: Transaction<DB>, scope: Scope, event: { id: string; type: string }) {
  const endpoints = await findEnabledEndpoints(trx, scope);
  const rows = endpoints
    .filter((e) => e.enabled_events.some((f) => eventTypeMatches(f, event.type)))
    .map((e): NewDelivery => ({ id: newId('webhook_delivery'), endpoint_id: e.id, event_id: event.id, kind: 'event' }));
  await queueDeliveries(trx, scope, rows);
  return rows.length;
}
