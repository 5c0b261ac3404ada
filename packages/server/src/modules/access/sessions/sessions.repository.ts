import type { SessionEndReason } from '@svc/contract';
import { type Insertable, sql } from 'kysely';
import type { Executor } from '../../../db/database';
import type { AccessSessionRow, AccessSessionsTable, EntitlementRow } from '../../../db/access.schema';
import { scoped, type Scope } from '../../../core/scope';
import { literal } from '../../../db/literal';

export type NewAccessSession = Omit<Insertable<AccessSessionsTable>, 'tenant_id' | 'livemode'>;

/** Why `access_open_sessions` refused an open; it wrote nothing for it. */
export type OpenRefusal = 'entitlement_changed' | 'device_limit_reached' | 'view_limit_reached' | 'concurrency_limit_reached';

/** One session open: the row to insert, the entitlement as access was decided with it, and its moment. */
export interface OpenItem {
  scope: Scope;
  session: NewAccessSession;
  entitlement: Pick<EntitlementRow, 'status' | 'starts_at' | 'ends_at' | 'limits'>;
  now: Date;
}

/**
 * Opens sessions in one call (`access_open_sessions`, migrations 006 and 2026_11_23_01): for each, under its
 * entitlement's row lock, it checks the entitlement is still the one access was decided with, ends lapsed sessions, applies the limits, ends
 * the sessions the new one replaces, counts its view and inserts it as given. Answers each open's refusal,
 * or `null` where the session was inserted.
 */
export async function openSessions(db: Executor, items: readonly OpenItem[]): Promise<Array<OpenRefusal | null>> {
  const opens = JSON.stringify(
    items.map(({ scope, session, entitlement: { status, starts_at, ends_at, limits }, now }) => ({
      session: { ...session, tenant_id: scope.tenantId, livemode: scope.livemode },
      entitlement: { status, starts_at, ends_at },
      limits,
      now,
    })),
  );
  const { rows } = await sql<{ item: number; refusal: OpenRefusal | null }>`select item, refusal from access_open_sessions(${opens}::jsonb)`.execute(db);
  const refusals = new Map(rows.map((r) => [r.item - 1, r.refusal]));
  return items.map((_, i) => {
    const refusal = refusals.get(i);
    if (refusal === undefined) throw new Error(`access_open_sessions answered nothing for open ${i + 1}`);
    return refusal;
  });
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

/** Every active session whose heartbeats stopped, across tenants (the missed-heartbeat sweep). */
export async function endAllLapsedSessions(db: Executor, now: Date, limit = 1000): Promise<number> {
  const result = await db
    .updateTable('access_sessions')
    .set((eb) => ({ state: 'ended', ended_reason: 'missed_heartbeats', ended_at: eb.ref('expires_at') }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('access_sessions')
        .select('id')
        .where('state', '=', literal('active'))
        .where('expires_at', '<=', now)
        .limit(limit),
    )
    // Checked again on the row itself: a heartbeat that committed meanwhile keeps its session.
    .where('state', '=', literal('active'))
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
