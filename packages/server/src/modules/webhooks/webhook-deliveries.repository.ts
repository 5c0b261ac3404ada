import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import type { DeliveryState } from '../../db/events-webhooks.schema';
import { scoped, type Scope } from '../../core/scope';

/** Enabled endpoints of the scope: the candidates for a new event. */
export async function findEnabledEndpoints(db: Executor, scope: Scope) {
  return scoped(db, scope)
    .selectFrom('webhook_endpoints')
    .select(['id', 'enabled_events'])
    .where('status', '=', 'enabled')
    .execute();
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

/** The delivery with everything an attempt needs, or undefined when it, its endpoint or its event is gone. */
export async function findDeliveryForAttempt(db: Executor, deliveryId: string) {
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
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}
export type DeliveryForAttempt = NonNullable<Awaited<ReturnType<typeof findDeliveryForAttempt>>>;

/**
 * Takes one of the endpoint's `limit` concurrency slots for a queued delivery. The endpoint row lock makes
 * the count and the take one step across processes; a slot expires by itself if its holder dies.
 */
export async function leaseSlot(db: Executor, d: { id: string; endpoint_id: string }, limit: number, leaseSeconds: number) {
  const endpoint = await db.selectFrom('webhook_endpoints').select('id').where('id', '=', d.endpoint_id).forUpdate().executeTakeFirst();
  if (!endpoint) return false;
  const { held } = await db
    .selectFrom('webhook_deliveries')
    .select(sql<number>`count(*)::int`.as('held'))
    .where('endpoint_id', '=', d.endpoint_id)
    .where('leased_until', '>', sql<Date>`now()`)
    .executeTakeFirstOrThrow();
  if (held >= limit) return false;
  const taken = await db
    .updateTable('webhook_deliveries')
    .set({ leased_until: sql<Date>`now() + make_interval(secs => ${leaseSeconds})` })
    .where('id', '=', d.id)
    .where('state', '=', 'queued')
    .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<=', sql<Date>`now()`)]))
    .executeTakeFirst();
  return taken.numUpdatedRows > 0n;
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
            w.and([w('state', '=', 'pending'), w('next_attempt_at', '<=', now)]),
            w.and([w('state', '=', 'queued'), w('queued_at', '<', sql<Date>`now() - interval '1 hour'`)]),
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
