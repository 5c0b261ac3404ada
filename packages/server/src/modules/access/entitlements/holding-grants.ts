import type { EntitlementSource } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema';
import type { Scope } from '../../../core/scope';
import { endSessionsOf } from '../sessions/session-rows.service';
import { effectiveStatus } from './entitlement-rules';
import * as repo from './entitlements.repository';
import { emitEntitlementEvent } from './entitlements.serializer';
import { grantEntitlementInTransaction, type TransactionalGrant } from './transactional-grants';

export interface Holding {
  source: EntitlementSource;
  /** The holding's id (a `fmb_` membership, a `sub_` subscription): the entitlements' `source_ref`. */
  sourceRef: string;
  customer: string;
}

/**
 * Brings the entitlements of a holding that lasts (a fanbase membership, a subscription) to `resources`, in the
 * caller's transaction: a resource not yet granted is granted; one granted is extended to a later `ends_at`
 * (`access.entitlement.extended`, also from a fixed end to none), or made active again when it was revoked or had
 * expired (the holding came back: a member joining again, a subscription renewed after its end), which is
 * `access.entitlement.granted` with the old status; one granted but no longer among `resources` is revoked (or
 * `removedAs: 'expired'`: expired now, for a holding that ran out unpaid).
 * A resource that no longer exists grants nothing. Answers how many entitlements changed.
 */
export async function syncHoldingEntitlements(
  trx: Transaction<DB>,
  scope: Scope,
  holding: Holding,
  resources: readonly TransactionalGrant['resource'][],
  options: { endsAt: Date | null; limits?: TransactionalGrant['limits']; removedAs?: 'revoked' | 'expired' },
  now: Date,
): Promise<number> {
  let changed = 0;
  const wanted = new Set(resources.map((r) => `${r.type}:${r.id}`));
  for (const resource of resources) {
    const grant: TransactionalGrant = { customer: holding.customer, resource, source: holding.source, source_ref: holding.sourceRef, ends_at: options.endsAt, limits: options.limits };
    const identity = { source: holding.source, source_ref: holding.sourceRef, customer: holding.customer, contact_hash: null, resource_type: resource.type, resource_id: resource.id };
    const before = await repo.findEntitlementByGrant(trx, scope, identity, { forUpdate: true });
    if (!before) {
      if (await grantEntitlementInTransaction(trx, scope, grant, now)) changed++;
      continue;
    }
    const status = effectiveStatus(before, now);
    if (status === 'revoked' || status === 'expired') {
      if (options.endsAt && options.endsAt.getTime() <= now.getTime()) continue;
      const row = await repo.updateEntitlement(trx, scope, before.id, { status: 'active', ends_at: options.endsAt }, now);
      await emitEntitlementEvent(trx, scope, 'access.entitlement.granted', row, now, { status });
      changed++;
      continue;
    }
    const later = options.endsAt === null ? before.ends_at !== null : before.ends_at !== null && options.endsAt.getTime() > before.ends_at.getTime();
    if (later) {
      const row = await repo.updateEntitlement(trx, scope, before.id, { ends_at: options.endsAt }, now);
      await emitEntitlementEvent(trx, scope, 'access.entitlement.extended', row, now, { ends_at: before.ends_at?.toISOString() ?? null });
      changed++;
    }
  }
  const held = await trx
    .selectFrom('entitlements')
    .selectAll()
    .where('tenant_id', '=', scope.tenantId)
    .where('livemode', '=', scope.livemode)
    .where('source', '=', holding.source)
    .where('source_ref', '=', holding.sourceRef)
    .where('customer', '=', holding.customer)
    .where('status', 'in', ['active', 'suspended'])
    .orderBy('id')
    .forUpdate()
    .execute();
  for (const row of held) {
    if (wanted.has(`${row.resource_type}:${row.resource_id}`)) continue;
    const expired = options.removedAs === 'expired';
    const updated = await repo.updateEntitlement(trx, scope, row.id, expired ? { status: 'expired', ends_at: now } : { status: 'revoked' }, now);
    await endSessionsOf(trx, scope, row.id, 'entitlement_inactive', now);
    await emitEntitlementEvent(trx, scope, expired ? 'access.entitlement.expired' : 'access.entitlement.revoked', updated, now, { status: row.status });
    changed++;
  }
  return changed;
}
