import type { SessionEndReason } from '@svc/contract';
import type { Insertable } from 'kysely';
import type { Executor } from '../../../db/database';
import type { AccessSessionRow, AccessSessionsTable } from '../../../db/access.schema';
import { scoped, type Scope } from '../../../core/scope';

export type NewAccessSession = Omit<Insertable<AccessSessionsTable>, 'tenant_id' | 'livemode'>;

export async function insertSession(db: Executor, scope: Scope, row: NewAccessSession): Promise<AccessSessionRow> {
  return scoped(db, scope).insertInto('access_sessions', row).returningAll().executeTakeFirstOrThrow();
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

/** Ends the entitlement's sessions whose heartbeats stopped, as of their lapse; run under the entitlement's lock. */
export async function endLapsedSessionsOf(db: Executor, scope: Scope, entitlementId: string, now: Date) {
  await scoped(db, scope)
    .updateTable('access_sessions')
    .set((eb) => ({ state: 'ended', ended_reason: 'missed_heartbeats', ended_at: eb.ref('expires_at') }))
    .where('entitlement_id', '=', entitlementId)
    .where('state', '=', 'active')
    .where('expires_at', '<=', now)
    .execute();
}

/** The entitlement's active sessions, oldest first. */
export async function activeSessionsOf(db: Executor, scope: Scope, entitlementId: string) {
  return scoped(db, scope)
    .selectFrom('access_sessions')
    .select(['id', 'device_id', 'created_at'])
    .where('entitlement_id', '=', entitlementId)
    .where('state', '=', 'active')
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
