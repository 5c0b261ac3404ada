import type { Transaction } from 'kysely';
import { eventTypeMatches } from '@svc/contract';
import { eventLogRow } from '../../core/events/record-event';
import type { DB } from '../../db/schema';
import { newId } from '../../core/ids';
import type { Scope } from '../../core/scope';
import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition';
import { jobOf, sendInTransaction, type TransactionalJob } from '../../jobs/send-in-transaction';
import type { PreparedEvent } from '../../core/events/event-subscribers';
import { insertQueuedDeliveries, recordEventsFindingEndpoints, type NewDelivery } from './webhook-deliveries.repository';

/** Deliveries a job attempts; `{deliveryId}` is the form of jobs queued by earlier versions. */
export const deliverWebhook = defineJob({
  name: 'deliver-webhook',
  version: 2,
  payload: z.union([z.object({ deliveryIds: z.array(z.string()).min(1) }), z.object({ deliveryId: z.string() })]),
  retry: { limit: 2 },
  // A batch's POSTs run at once, each within the 10 s timeout: a job still active after 30 s lost its process.
  expireInSeconds: 30,
});
export type DeliverWebhookJob = z.infer<typeof deliverWebhook.payload>;

/** At most this many deliveries per job, so a large batch still spreads over workers. */
const DELIVERIES_PER_JOB = 25;

/**
 * Jobs attempting `ids`, several deliveries each: an event going to five endpoints costs the job queue one
 * job, not five (pg-boss's insert, fetch and completion are a large part of a delivery's database work).
 */
export function deliveryJobs(ids: readonly string[], startAfter?: number): TransactionalJob[] {
  const jobs: TransactionalJob[] = [];
  for (let i = 0; i < ids.length; i += DELIVERIES_PER_JOB) {
    jobs.push(jobOf(deliverWebhook, { deliveryIds: ids.slice(i, i + DELIVERIES_PER_JOB) }, startAfter));
  }
  return jobs;
}

/** Queues a first attempt of each delivery, in the caller's transaction. */
export async function queueDeliveries(trx: Transaction<DB>, scope: Scope, rows: readonly NewDelivery[]): Promise<void> {
  await insertQueuedDeliveries(trx, scope, rows);
  await sendInTransaction(trx, deliveryJobs(rows.map((r) => r.id)));
}


/**
 * Records the events and queues one delivery per enabled endpoint of each event's tenant and environment whose
 * `enabled_events` match its type, with a pg-boss job per event (per 25 of its deliveries); the notifications
 * go out with the events.
 */
export async function recordAndDeliver(trx: Transaction<DB>, events: readonly PreparedEvent[]): Promise<void> {
  const endpoints = await recordEventsFindingEndpoints(trx, events.map((e) => ({ row: eventLogRow(e.envelope), notify: e.notify })));
  const byScope = new Map<string, { scope: Scope; rows: NewDelivery[] }>();
  const jobs: TransactionalJob[] = [];
  events.forEach((event, i) => {
    const rows = endpoints[i]!
      .filter((endpoint) => endpoint.enabled_events.some((f) => eventTypeMatches(f, event.envelope.type)))
      .map((endpoint): NewDelivery => ({ id: newId('webhook_delivery'), endpoint_id: endpoint.id, event_id: event.envelope.id, kind: 'event' }));
    if (rows.length === 0) return;
    const key = `${event.scope.tenantId}:${event.scope.livemode}`;
    const group = byScope.get(key) ?? { scope: event.scope, rows: [] };
    group.rows.push(...rows);
    byScope.set(key, group);
    // A job per event: its deliveries go to different endpoints, which a worker attempts side by side.
    jobs.push(...deliveryJobs(rows.map((r) => r.id)));
  });
  for (const { scope, rows } of byScope.values()) await insertQueuedDeliveries(trx, scope, rows);
  await sendInTransaction(trx, jobs);
}
