import type { EntitlementLimitsInput, EntitlementSource } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { EntitlementRow } from '../../../db/access.schema';
import type { DB } from '../../../db/schema';
import { newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import { resourcesExist } from '../resources';
import { endSessionsOf } from '../sessions/session-rows.service';
import { limitsColumn } from './grant-entitlement';
import * as repo from './entitlements.repository';
import { emitEntitlementEvent, prepareEntitlementEvent } from './entitlements.serializer';
import { emitPreparedEvents, type PreparedEvent } from '../../../core/events/emit-event';

export interface TransactionalGrant {
  customer: string;
  resource: { type: 'ls' | 'ast'; id: string };
  source: EntitlementSource;
  source_ref: string;
  ends_at: Date | null;
  limits?: EntitlementLimitsInput | null;
}

/** The new, active entitlement row a grant makes. */
const grantRow = (scope: Scope, grant: TransactionalGrant, now: Date): EntitlementRow => ({
  id: newId('entitlement'),
  tenant_id: scope.tenantId,
  livemode: scope.livemode,
  customer: grant.customer,
  contact_hash: null,
  resource_type: grant.resource.type,
  resource_id: grant.resource.id,
  source: grant.source,
  source_ref: grant.source_ref,
  starts_at: null,
  ends_at: grant.ends_at,
  limits: limitsColumn(grant.limits ?? undefined),
  status: 'active',
  views_used: 0,
  external_id: null,
  metadata: {},
  created_at: now,
  updated_at: now,
});

/**
 * Grants an entitlement inside the caller's transaction, so it exists exactly when the change that earned it
 * (a paid order) commits. A repeat of the same grant answers the existing one unchanged; a resource that no
 * longer exists grants nothing (`null`): the grant is a consequence, not a condition, of the caller's change.
 * Every process's cache hears of it through the event's notification.
 */
export async function grantEntitlementInTransaction(trx: Transaction<DB>, scope: Scope, grant: TransactionalGrant, now: Date) {
  const [present] = await resourcesExist(trx, [{ scope, resource: grant.resource }]);
  if (!present) return null;
  const row = grantRow(scope, grant, now);
  const inserted = await repo.insertEntitlementsIfNew(trx, [row]);
  if (inserted.has(row.id)) return emitEntitlementEvent(trx, scope, 'access.entitlement.granted', row, now);
  const existing = await repo.findEntitlementByGrant(trx, scope, {
    source: grant.source,
    source_ref: grant.source_ref,
    customer: grant.customer,
    contact_hash: null,
    resource_type: grant.resource.type,
    resource_id: grant.resource.id,
  });
  return existing ? { id: existing.id } : null;
}

/**
 * `grantEntitlementInTransaction` for several grants of one scope (a paid order's tickets): one check of the
 * resources, one insert, and the `access.entitlement.granted` events handed back for the caller to record in
 * the same transaction together with its own (`emitPreparedEvents`), which it must do before it commits.
 * Answers, per grant, the entitlement made or found (`null` when its resource no longer exists); two grants of
 * one customer, resource and source make one entitlement.
 */
export async function grantEntitlementsInTransaction(
  trx: Transaction<DB>,
  scope: Scope,
  grants: readonly TransactionalGrant[],
  now: Date,
): Promise<{ entitlements: ({ id: string } | null)[]; events: PreparedEvent[] }> {
  if (grants.length === 0) return { entitlements: [], events: [] };
  const present = await resourcesExist(trx, grants.map((g) => ({ scope, resource: g.resource })));
  const keyOf = (g: TransactionalGrant) => [g.source, g.source_ref, g.customer, g.resource.type, g.resource.id].join('\u0000');
  const rows = new Map<string, EntitlementRow>();
  grants.forEach((grant, i) => {
    if (!present[i] || rows.has(keyOf(grant))) return;
    rows.set(keyOf(grant), grantRow(scope, grant, now));
  });
  const inserted = rows.size > 0 ? await repo.insertEntitlementsIfNew(trx, [...rows.values()]) : new Set<string>();
  const events: PreparedEvent[] = [];
  const idOf = new Map<string, string | null>();
  for (const [key, row] of rows) {
    if (inserted.has(row.id)) {
      events.push(prepareEntitlementEvent(scope, 'access.entitlement.granted', row, now));
      idOf.set(key, row.id);
      continue;
    }
    const existing = await repo.findEntitlementByGrant(trx, scope, {
      source: row.source as EntitlementSource,
      source_ref: row.source_ref,
      customer: row.customer,
      contact_hash: null,
      resource_type: row.resource_type,
      resource_id: row.resource_id,
    });
    idOf.set(key, existing?.id ?? null);
  }
  const entitlements = grants.map((g) => {
    const id = idOf.get(keyOf(g));
    return id ? { id } : null;
  });
  return { entitlements, events };
}

/**
 * Revokes, inside the caller's transaction, every active or suspended entitlement granted with this source and
 * `source_ref` (a ticket's order code): each ends its sessions and emits `access.entitlement.revoked`.
 */
export async function revokeEntitlementsBySource(trx: Transaction<DB>, scope: Scope, source: EntitlementSource, sourceRef: string, now: Date) {
  return revokeWhere(trx, scope, now, (q) => q.where('source', '=', source).where('source_ref', '=', sourceRef));
}

/**
 * `revokeEntitlementsBySource` narrowed to some resources: a refunded digital item of a product order loses the
 * grants of its own resources, and the order's other items keep theirs.
 */
export async function revokeEntitlementsBySourceFor(
  trx: Transaction<DB>,
  scope: Scope,
  source: EntitlementSource,
  sourceRef: string,
  resources: ReadonlyArray<{ type: 'ls' | 'ast'; id: string }>,
  now: Date,
) {
  if (resources.length === 0) return 0;
  return revokeWhere(trx, scope, now, (q) =>
    q
      .where('source', '=', source)
      .where('source_ref', '=', sourceRef)
      .where((eb) => eb.or(resources.map((r) => eb.and([eb('resource_type', '=', r.type), eb('resource_id', '=', r.id)])))),
  );
}

/** Revokes one entitlement inside the caller's transaction (one ticket of an order no longer admits its holder). */
export async function revokeEntitlementInTransaction(trx: Transaction<DB>, scope: Scope, id: string, now: Date) {
  return revokeWhere(trx, scope, now, (q) => q.where('id', '=', id));
}

type EntitlementsQuery = ReturnType<typeof activeEntitlements>;
const activeEntitlements = (trx: Transaction<DB>, scope: Scope) =>
  trx
    .selectFrom('entitlements')
    .selectAll()
    .where('tenant_id', '=', scope.tenantId)
    .where('livemode', '=', scope.livemode)
    .where('status', 'in', ['active', 'suspended']);

async function revokeWhere(trx: Transaction<DB>, scope: Scope, now: Date, narrow: (q: EntitlementsQuery) => EntitlementsQuery) {
  const rows = await narrow(activeEntitlements(trx, scope)).orderBy('id').forUpdate().execute();
  for (const row of rows) {
    const updated = await repo.updateEntitlement(trx, scope, row.id, { status: 'revoked' }, now);
    await endSessionsOf(trx, scope, row.id, 'entitlement_inactive', now);
    await emitEntitlementEvent(trx, scope, 'access.entitlement.revoked', updated, now, { status: row.status });
  }
  return rows.length;
}


/**
 * Passes the active entitlements granted with this source and one of `sourceRefs` (a guest's order codes) to
 * `customer`, the person who signed in and took those orders: each held by another customer is granted to them,
 * with its end and limits (`access.entitlement.granted`), and revoked from the other (`.revoked`), in the
 * caller's transaction. Answers how many passed.
 */
export async function passEntitlementsBySource(trx: Transaction<DB>, scope: Scope, source: EntitlementSource, sourceRefs: readonly string[], customer: string, now: Date) {
  if (sourceRefs.length === 0) return 0;
  const held = await activeEntitlements(trx, scope)
    .where('status', '=', 'active')
    .where('source', '=', source)
    .where('source_ref', 'in', [...sourceRefs])
    .where('customer', 'is not', null)
    .where('customer', '<>', customer)
    .orderBy('id')
    .forUpdate()
    .execute();
  if (held.length === 0) return 0;
  const rows = held.map((r) => ({
    ...grantRow(scope, { customer, resource: { type: r.resource_type, id: r.resource_id }, source, source_ref: r.source_ref ?? '', ends_at: r.ends_at }, now),
    starts_at: r.starts_at,
    limits: r.limits,
  }));
  const inserted = await repo.insertEntitlementsIfNew(trx, rows);
  await emitPreparedEvents(trx, rows.filter((r) => inserted.has(r.id)).map((r) => prepareEntitlementEvent(scope, 'access.entitlement.granted', r, now)));
  await revokeWhere(trx, scope, now, (q) => q.where('id', 'in', held.map((r) => r.id)));
  return held.length;
}
