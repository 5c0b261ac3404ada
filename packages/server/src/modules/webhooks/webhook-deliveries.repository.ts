import { type Insertable, sql, type Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { Database, Executor } from '../../db/database';
import type { DeliveryState, EventLogTable } from '../../db/events-webhooks.schema';
import { scoped, type Scope } from '../../core/scope';

import type { Notification } from '../../core/events/event-subscribers';
import { literal } from '../../db/literal';

export type { Notification };

/**
 * Writes events to `event_log` and answers, per event, the enabled endpoints of its tenant and environment
 * (the candidates to deliver it to), in one statement that also sends the events' notifications: any number
 * of events cost their transaction one round trip.
 */
export async function recordEventsFindingEndpoints(
  trx: Transaction<DB>,
  events: ReadonlyArray<{ row: Insertable<EventLogTable>; notify?: Notification }>,
): Promise<Array<Array<{ id: string; enabled_events: string[] }>>> {
  const notes = events.flatMap((e) => (e.notify ? [e.notify] : []));
  const { rows } = await sql<{ event_id: string; endpoint_id: string | null; enabled_events: string[] | null }>`
    with recorded as (
      insert into event_log (id, tenant_id, livemode, type, subject, envelope, created_at)
      select id, tenant_id, livemode, type, subject, envelope, created_at
      from jsonb_populate_recordset(null::event_log, ${JSON.stringify(events.map((e) => e.row))}::jsonb)
      returning id, tenant_id, livemode
    ),
    notified as (
      select count(pg_notify(n.channel, n.payload)) as sent
      from unnest(${notes.map((n) => n.channel)}::text[], ${notes.map((n) => n.payload)}::text[]) as n(channel, payload)
    )
    select r.id as event_id, e.id as endpoint_id, e.enabled_events
    -- The cross join makes the notifications part of the statement; the left join answers events without endpoints.
    from recorded r cross join notified
    left join webhook_endpoints e on e.tenant_id = r.tenant_id and e.livemode = r.livemode and e.status = 'enabled'
  `.execute(trx);
  const byEvent = new Map<string, Array<{ id: string; enabled_events: string[] }>>();
  for (const r of rows) {
    const list = byEvent.get(r.event_id) ?? [];
    if (r.endpoint_id !== null) list.push({ id: r.endpoint_id, enabled_events: r.enabled_events! });
    byEvent.set(r.event_id, list);
  }
  return events.map((e) => byEvent.get(e.row.id) ?? []);
}

export interface NewDelivery {
  id: string;
  endpoint_id: string;
  event_id: string;
  kind: 'event' | 'replay' | 'test';
}

/** Inserts deliveries already `queued`: their first attempt is immediate. */
export async function insertQueuedDeliveries(db: Executor, scope: Scope, rows: readonly NewDelivery[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('webhook_deliveries')
    .values(
      rows.map((r) => ({ ...r, tenant_id: scope.tenantId, livemode: scope.livemode, state: 'queued' as const, queued_at: sql<Date>`now()` })),
    )
    .execute();
}

/** The deliveries with everything an attempt needs; one whose endpoint or event is gone is not returned. */
export async function findDeliveriesForAttempt(db: Executor, deliveryIds: readonly string[]) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('event_log as ev', 'ev.id', 'd.event_id')
    .select([
      'd.id',
      'd.tenant_id',
      'd.livemode',
      'd.state',
      'd.kind',
      'd.attempt_count',
      'd.first_attempt_at',
      'd.endpoint_id',
      'd.event_id',
      'e.url',
      'e.status as endpoint_status',
      'e.secret_sealed',
      'e.previous_secret_sealed',
      'e.previous_secret_expires_at',
      'ev.type as event_type',
      'ev.envelope',
    ])
    .where('d.id', 'in', deliveryIds)
    .execute();
}
export type DeliveryForAttempt = Awaited<ReturnType<typeof findDeliveriesForAttempt>>[number];

/**
 * Takes free concurrency slots (each endpoint has `limit`) for queued deliveries, in the order given; answers
 * the ids that got one. One statement (`lease_webhook_slots`), its own transaction: call it outside any other.
 * A slot expires by itself if its holder dies.
 */
export async function leaseSlots(
  db: Database,
  deliveries: ReadonlyArray<{ id: string; endpoint_id: string }>,
  limit: number,
  leaseSeconds: number,
): Promise<string[]> {
  if (deliveries.length === 0) return [];
  const { rows } = await sql<{ id: string }>`
    select lease_webhook_slots(${deliveries.map((d) => d.id)}::text[], ${deliveries.map((d) => d.endpoint_id)}::text[],
      ${limit}::int, ${leaseSeconds}::int) as id`.execute(db);
  return rows.map((r) => r.id);
}

export interface AttemptOutcome {
  state: DeliveryState;
  attemptCount: number;
  firstAttemptAt: Date;
  nextAttemptAt: Date | null;
}

/** Records where the delivery stands after an attempt and gives its slot back. */
export async function finishAttempt(db: Executor, deliveryId: string, o: AttemptOutcome): Promise<void> {
  const done = o.state === 'succeeded' || o.state === 'failed';
  await db
    .updateTable('webhook_deliveries')
    .set({
      state: o.state,
      attempt_count: o.attemptCount,
      first_attempt_at: o.firstAttemptAt,
      next_attempt_at: o.nextAttemptAt,
      queued_at: null,
      leased_until: null,
      completed_at: done ? sql<Date>`now()` : null,
    })
    .where('id', '=', deliveryId)
    .execute();
}

/** A successful attempt, as its log row and the delivery's new state record it. */
export interface Success {
  attemptId: string;
  delivery: Pick<DeliveryForAttempt, 'id' | 'tenant_id' | 'livemode' | 'endpoint_id' | 'event_id' | 'event_type' | 'url'>;
  attempt: number;
  firstAttemptAt: Date;
  statusCode: number;
  latencyMs: number;
  responseBody: string | null;
  at: Date;
}

/**
 * Records many successful attempts in one statement, as `recordOutcome` records one: the attempt logged,
 * the delivery `succeeded` with its slot given back, and the endpoint's failure streak cleared (its row is
 * written only when it has one, so successes do not queue behind each other on the endpoint's lock).
 */
export async function recordSuccesses(db: Executor, all: readonly Success[]): Promise<void> {
  const col = <T>(f: (s: Success) => T) => all.map(f);
  await sql`
    with v as (
      select * from unnest(
        ${col((s) => s.attemptId)}::text[], ${col((s) => s.delivery.id)}::text[], ${col((s) => s.delivery.tenant_id)}::text[],
        ${col((s) => s.delivery.livemode)}::boolean[], ${col((s) => s.delivery.endpoint_id)}::text[], ${col((s) => s.delivery.event_id)}::text[],
        ${col((s) => s.delivery.event_type)}::text[], ${col((s) => s.attempt)}::int[], ${col((s) => s.delivery.url)}::text[],
        ${col((s) => s.statusCode)}::int[], ${col((s) => s.latencyMs)}::int[], ${col((s) => s.responseBody)}::text[],
        ${col((s) => s.firstAttemptAt)}::timestamptz[], ${col((s) => s.at)}::timestamptz[]
      ) as v(attempt_id, delivery_id, tenant_id, livemode, endpoint_id, event_id, event_type, attempt, url, status_code, latency_ms,
             response_body, first_attempt_at, at)
    ),
    attempts as (
      insert into webhook_attempts (id, tenant_id, livemode, endpoint_id, delivery_id, event_id, event_type, attempt, url,
                                    status_code, succeeded, latency_ms, response_body, error, next_attempt_at, created_at)
      select attempt_id, tenant_id, livemode, endpoint_id, delivery_id, event_id, event_type, attempt, url,
             status_code, true, latency_ms, response_body, null, null, at from v
    ),
    streaks as (
      update webhook_endpoints set failing_since = null
      where id in (select endpoint_id from v) and failing_since is not null
    )
    update webhook_deliveries d
    set state = 'succeeded', attempt_count = v.attempt, first_attempt_at = v.first_attempt_at, next_attempt_at = null,
        queued_at = null, leased_until = null, completed_at = now()
    from v
    -- The ids as a list too: a join alone is planned as a scan of the whole table while it is under some
    -- thousand rows, and a prepared statement keeps that plan as the table grows by every delivery made.
    where d.id = any(${col((s) => s.delivery.id)}::text[]) and d.id = v.delivery_id`.execute(db);
}

/** Ends every unfinished delivery of a disabled endpoint. */
export async function failOpenDeliveries(db: Executor, endpointId: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ state: 'failed', next_attempt_at: null, queued_at: null, completed_at: sql<Date>`now()` })
    .where('endpoint_id', '=', endpointId)
    .where('state', 'in', ['queued', 'pending'])
    .execute();
}

/**
 * Moves deliveries that are due (`pending` with `next_attempt_at <= now`, by the delivery clock) or whose job
 * was lost (`queued` for over an hour) back to `queued`, returning their ids. Rows other processes are
 * moving are skipped, so several schedulers can run at once.
 */
export async function queueDueDeliveries(db: Executor, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .updateTable('webhook_deliveries')
    .set({ state: 'queued', queued_at: sql<Date>`now()`, next_attempt_at: null })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where((w) =>
          w.or([
            w.and([w('state', '=', literal('pending')), w('next_attempt_at', '<=', now)]),
            w.and([w('state', '=', literal('queued')), w('queued_at', '<', sql<Date>`now() - interval '1 hour'`)]),
          ]),
        )
        .orderBy('next_attempt_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
