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
import { emitEntitlementEvent } from './entitlements.serializer';

export interface TransactionalGrant {
  customer: string;
  resource: { type: 'ls' | 'ast'; id: string };
  source: EntitlementSource;
  source_ref: string;
  ends_at: Date | null;
  limits?: EntitlementLimitsInput | null;
}

/**
 * Grants an entitlement inside the caller's transaction, so it exists exactly when the change that earned it
 * (a paid order) commits. A repeat of the same grant answers the existing one unchanged; a resource that no
 * longer exists grants nothing (`null`): the grant is a consequence, not a condition, of the caller's change.
 * Every process's cache hears of it through the event's notification.
 */
export async function grantEntitlementInTransaction(trx: Transaction<DB>, scope: Scope, grant: TransactionalGrant, now: Date) {
  const [present] = await resourcesExist(trx, [{ scope, resource: grant.resource }]);
  if (!present) return null;
  const row: EntitlementRow = {
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
  };
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
 * Revokes, inside the caller's transaction, every active or suspended entitlement granted with this source and
 * `source_ref` (a ticket's order code): each ends its sessions and emits `access.entitlement.revoked`.
 */
export async function revokeEntitlementsBySource(trx: Transaction<DB>, scope: Scope, source: EntitlementSource, sourceRef: string, now: Date) {
  return revokeWhere(trx, scope, now, (q) => q.where('source', '=', source).where('source_ref', '=', sourceRef));
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

