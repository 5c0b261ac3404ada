import type { SessionEndReason } from '@svc/contract';
import { type Insertable, type Kysely, sql } from 'kysely';
import type { DB } from '../../../db/schema';
import type { Executor } from '../../../db/database';
import type { AccessSessionRow, AccessSessionsTable } from '../../../db/access.schema';
import { scoped, type Scope } from '../../../core/scope';

export type NewAccessSession = Omit<Insertable<AccessSessionsTable>, 'tenant_id' | 'livemode'>;

/** What opening a session does besides inserting it, decided by `admitSession` under the entitlement's lock. */
export interface Admission {
  /** Sessions the new one replaces: the device's own, and the oldest under `replace_oldest`. */
  replaced: string[];
  /** Whether the session uses one of the entitlement's views (`views_used`). */
  countsAsView: boolean;
}

/**
 * Inserts an admitted session and, in the same statement, ends the sessions it replaces and counts its view:
 * one round trip while the entitlement's row lock is held.
 */
export async function insertSession(db: Executor, scope: Scope, row: NewAccessSession, admission: Admission, now: Date): Promise<AccessSessionRow> {
  const inScope = { tenant_id: scope.tenantId, livemode: scope.livemode };
  const q = (db as Kysely<DB>)
    .with('replaced', (w) =>
      w
        .updateTable('access_sessions')
        .set({ state: 'ended', ended_reason: 'replaced_by_newer_session', ended_at: now })
        .where('tenant_id', '=', scope.tenantId)
        .where('livemode', '=', scope.livemode)
        // `in ()` is not SQL: an id no session has stands in for none.
        .where('id', 'in', admission.replaced.length > 0 ? admission.replaced : [''])
        .where('state', '=', 'active')
        .returning('id'),
    )
    .with('viewed', (w) =>
      w
        .updateTable('entitlements')
        .set((eb) => ({ views_used: eb('views_used', '+', 1) }))
        .where('tenant_id', '=', scope.tenantId)
        .where('livemode', '=', scope.livemode)
        .where('id', '=', row.entitlement_id)
        .where(sql<boolean>`${admission.countsAsView}`)
        .returning('id'),
    );
  return q.insertInto('access_sessions').values({ ...row, ...inScope }).returningAll().executeTakeFirstOrThrow();
}

export async function findSession(db: Executor, scope: Scope, id: string): Promise<AccessSessionRow | undefined> {
  return scoped(db, scope).selectFrom('access_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The heartbeat's one read: the session with what decides whether its entitlement still holds. */
export async function findSessionForHeartbeat(db: Executor, scope: Scope, id: string) {
  return scoped(db, scope)
    .selectFrom('access_sessions')
    .innerJoin('entitlements', 'entitlements.id', 'access_sessions.entitlement_id')
    .selectAll('access_sessions')
    .select(['entitlements.status as entitlement_status', 'entitlements.ends_at as entitlement_ends_at'])
    .where('access_sessions.id', '=', id)
    .executeTakeFirst();
}

/** The heartbeat's one write: only an active session that has not lapsed moves on, so a racing end wins. */
export async function extendSession(db: Executor, scope: Scope, id: string, now: Date, expiresAt: Date) {
  return scoped(db, scope)
    .updateTable('access_sessions')
    .set({ last_heartbeat_at: now, expires_at: expiresAt })
    .where('id', '=', id)
    .where('state', '=', 'active')
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
}

/** One heartbeat of a batch: which session, as of when, and whose it must be (`null`: anyone's in the scope). */
export interface HeartbeatWrite {
  scope: Scope;
  id: string;
  now: Date;
  expiresAt: Date;
  customer: string | null;
  contactHash: string | null;
}

/**
 * Many heartbeats' writes in one statement. A session moves on only if it is the caller's, still active, not
 * lapsed, and its entitlement still holds (status and end read from its row now), so the database decides
 * every heartbeat exactly as the one-at-a-time path would. Answers the updated row per write, or `undefined`
 * for a write that changed nothing (ended, lapsed, not found, someone else's, or the same session twice in
 * the batch: only one of those is applied, the others go the slow way).
 */
export async function extendSessions(db: Executor, writes: readonly HeartbeatWrite[]): Promise<Array<AccessSessionRow | undefined>> {
  const { rows } = await sql<AccessSessionRow & { item: string }>`
    update access_sessions s
    set last_heartbeat_at = v.now, expires_at = v.expires_at
    from unnest(
      ${writes.map((w) => w.id)}::text[], ${writes.map((w) => w.scope.tenantId)}::text[], ${writes.map((w) => w.scope.livemode)}::boolean[],
      ${writes.map((w) => w.now)}::timestamptz[], ${writes.map((w) => w.expiresAt)}::timestamptz[],
      ${writes.map((w) => w.customer)}::text[], ${writes.map((w) => w.contactHash)}::text[]
    ) with ordinality as v(id, tenant_id, livemode, now, expires_at, customer, contact_hash, item),
    entitlements e
    where s.id = v.id and s.tenant_id = v.tenant_id and s.livemode = v.livemode
      and s.state = 'active' and s.expires_at > v.now
      and (v.customer is null or s.customer = v.customer)
      and (v.contact_hash is null or s.contact_hash = v.contact_hash)
      and e.id = s.entitlement_id and e.status = 'active' and (e.ends_at is null or e.ends_at > v.now)
    returning s.*, v.item`.execute(db);
  const byItem = new Map(rows.map(({ item, ...row }) => [Number(item) - 1, row as AccessSessionRow]));
  return writes.map((_, i) => byItem.get(i));
}

/** Ends one session if it is still active; `undefined` when something else ended it first. */
export async function endSession(db: Executor, scope: Scope, id: string, reason: SessionEndReason, at: Date) {
  return scoped(db, scope)
    .updateTable('access_sessions')
    .set({ state: 'ended', ended_reason: reason, ended_at: at })
    .where('id', '=', id)
    .where('state', '=', 'active')
    .returningAll()
    .executeTakeFirst();
}

/** Ends every active session of an entitlement (revoked, suspended or expired). */
export async function endSessionsOf(db: Executor, scope: Scope, entitlementId: string, reason: SessionEndReason, at: Date) {
  const result = await scoped(db, scope)
    .updateTable('access_sessions')
    .set({ state: 'ended', ended_reason: reason, ended_at: at })
    .where('entitlement_id', '=', entitlementId)
    .where('state', '=', 'active')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The entitlement's active sessions, oldest first, after ending (in the same statement) those whose
 * heartbeats stopped, as of their lapse. Run under the entitlement's lock.
 */
export async function settleActiveSessionsOf(db: Executor, scope: Scope, entitlementId: string, now: Date) {
  return (db as Kysely<DB>)
    .with('lapsed', (w) =>
      w
        .updateTable('access_sessions')
        .set((eb) => ({ state: 'ended', ended_reason: 'missed_heartbeats', ended_at: eb.ref('expires_at') }))
        .where('tenant_id', '=', scope.tenantId)
        .where('livemode', '=', scope.livemode)
        .where('entitlement_id', '=', entitlementId)
        .where('state', '=', 'active')
        .where('expires_at', '<=', now)
        .returning('id'),
    )
    .selectFrom('access_sessions')
    .select(['id', 'device_id', 'created_at'])
    .where('tenant_id', '=', scope.tenantId)
    .where('livemode', '=', scope.livemode)
    .where('entitlement_id', '=', entitlementId)
    .where('state', '=', 'active')
    // The statement sees the rows as they were before `lapsed` ended some: those are left out here.
    .where('expires_at', '>', now)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Whether the device opened a session on the entitlement before, and how many distinct devices did. */
export async function deviceUsage(db: Executor, scope: Scope, entitlementId: string, deviceId: string) {
  const row = await scoped(db, scope)
    .selectFrom('access_sessions')
    .select((eb) => [
      eb.fn.count<number>('device_id').distinct().as('devices'),
      eb.fn.countAll<number>().filterWhere('device_id', '=', deviceId).as('this_device'),
    ])
    .where('entitlement_id', '=', entitlementId)
    .executeTakeFirstOrThrow();
  return { devices: Number(row.devices), known: Number(row.this_device) > 0 };
}

/** Every active session whose heartbeats stopped, across tenants (the missed-heartbeat sweep). */
export async function endAllLapsedSessions(db: Executor, now: Date, limit = 1000): Promise<number> {
  const result = await db
    .updateTable('access_sessions')
    .set((eb) => ({ state: 'ended', ended_reason: 'missed_heartbeats', ended_at: eb.ref('expires_at') }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('access_sessions')
        .select('id')
        .where('state', '=', 'active')
        .where('expires_at', '<=', now)
        .limit(limit),
    )
    // Checked again on the row itself: a heartbeat that committed meanwhile keeps its session.
    .where('state', '=', 'active')
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
