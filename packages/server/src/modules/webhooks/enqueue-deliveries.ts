import type { Transaction } from 'kysely';
import { eventTypeMatches, type EventEnvelope } from '@svc/contract';
import { eventLogRow } from '../../core/events/record-event';
import type { DB } from '../../db/schema';
import { newId } from '../../core/ids';
import type { Scope } from '../../core/scope';
import { QUEUE_NAMES } from '../../jobs/queue-names';
import { sendInTransaction, type TransactionalJob } from '../../jobs/send-in-transaction';
import { insertQueuedDeliveries, recordEventFindingEndpoints, type NewDelivery, type Notification } from './webhook-deliveries.repository';

/** Deliveries a job attempts; `{deliveryId}` is the form of jobs queued by earlier versions. */
export type DeliverWebhookJob = { deliveryIds: string[] } | { deliveryId: string };

/** At most this many deliveries per job, so a large batch still spreads over workers. */
const DELIVERIES_PER_JOB = 25;

/**
 * Jobs attempting `ids`, several deliveries each: an event going to five endpoints costs the job queue one
 * job, not five (pg-boss's insert, fetch and completion are a large part of a delivery's database work).
 */
export function deliveryJobs(ids: readonly string[], startAfter?: number): TransactionalJob[] {
  const jobs: TransactionalJob[] = [];
  for (let i = 0; i < ids.length; i += DELIVERIES_PER_JOB) {
    const data: DeliverWebhookJob = { deliveryIds: ids.slice(i, i + DELIVERIES_PER_JOB) };
    jobs.push({ name: QUEUE_NAMES.deliverWebhook, data, ...(startAfter === undefined ? {} : { startAfter }) });
  }
  return jobs;
}

/** Queues a first attempt of each delivery, in the caller's transaction. */
export async function queueDeliveries(trx: Transaction<DB>, scope: Scope, rows: readonly NewDelivery[]): Promise<void> {
  await insertQueuedDeliveries(trx, scope, rows);
  await sendInTransaction(trx, deliveryJobs(rows.map((r) => r.id)));
}

/**
 * Records the event and queues one delivery per enabled endpoint of its tenant and environment whose
 * `enabled_events` match its type; `notify` goes out in the same statement as the event.
 */
export async function recordAndDeliver(trx: Transaction<DB>, scope: Scope, event: EventEnvelope, notify?: Notification) {
  const endpoints = await recordEventFindingEndpoints(trx, scope, eventLogRow(event), notify);
  const rows = endpoints
    .filter((e) => e.enabled_events.some((f) => eventTypeMatches(f, event.type)))
    .map((e): NewDelivery => ({ id: newId('webhook_delivery'), endpoint_id: e.id, event_id: event.id, kind: 'event' }));
  await queueDeliveries(trx, scope, rows);
  return rows.length;
}
