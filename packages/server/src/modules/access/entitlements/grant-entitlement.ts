import type { Entitlement, EntitlementLimitsInput, GrantEntitlementInput } from '@svc/contract';
import type { EntitlementLimitsColumn, EntitlementRow } from '../../../db/access.schema';
import { envelopeOf } from '../../../core/events/emit-event';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { AccessDeps } from '../access-deps';
import { assertResourceExists, resourceNotFound, resourceOf } from '../resources';
import { entitlementChanged } from './entitlement-cache';
import { effectiveStatus } from './entitlement-rules';
import * as repo from './entitlements.repository';
import { emitEntitlementEvent, serializeEntitlement } from './entitlements.serializer';
import { insertNewGrant } from './new-grants';

export function limitsColumn(limits: EntitlementLimitsInput | undefined): EntitlementLimitsColumn {
  return {
    max_devices: limits?.max_devices ?? null,
    max_concurrent_sessions: limits?.max_concurrent_sessions ?? null,
    concurrency_policy: limits?.concurrency_policy ?? 'replace_oldest',
    max_views: limits?.max_views ?? null,
    allowed_countries: limits?.allowed_countries ? [...new Set(limits.allowed_countries)] : null,
    allowed_domains: limits?.allowed_domains ? [...new Set(limits.allowed_domains)] : null,
  };
}

/**
 * A new grant's insert and `access.entitlement.granted` event, made together with the other new grants
 * arriving meanwhile (`insertNewGrant`); `null` when the same grant exists.
 */
async function grantIfNew(
  deps: AccessDeps,
  scope: Scope,
  input: GrantEntitlementInput,
  identity: repo.GrantIdentity,
  endsAt: Date | null,
  now: Date,
): Promise<Entitlement | null> {
  const row: EntitlementRow = {
    id: newId('entitlement'),
    tenant_id: scope.tenantId,
    livemode: scope.livemode,
    ...identity,
    starts_at: input.starts_at ? new Date(input.starts_at) : null,
    ends_at: endsAt,
    limits: limitsColumn(input.limits),
    status: 'active',
    views_used: 0,
    external_id: input.external_id ?? null,
    metadata: input.metadata ?? {},
    created_at: now,
    updated_at: now,
  };
  const entitlement = serializeEntitlement(row, now);
  // Built here, in the request's context: the event names the request that caused it.
  const envelope = envelopeOf(scope, { type: 'access.entitlement.granted', subject: row.id, object: entitlement });
  const result = await insertNewGrant(deps.db, { scope, row, event: { scope, envelope, notify: entitlementChanged(row) } });
  if (result === 'no_resource') throw resourceNotFound({ id: row.resource_id });
  if (result === 'exists') return null;
  deps.entitlementCache.changed(scope, entitlement);
  return entitlement;
}

/**
 * Grants an entitlement, or answers the existing one for a repeat grant (same source, source_ref, customer
 * and resource). Two identical grants at once meet at the grant index: one inserts, the other waits for it
 * to commit and then finds it. A repeat with a later `ends_at` extends the entitlement.
 */
export async function grantEntitlement(
  deps: AccessDeps,
  scope: Scope,
  input: GrantEntitlementInput,
): Promise<{ created: boolean; entitlement: Entitlement }> {
  const now = deps.now();
  const resource = resourceOf(input.resource);
  const endsAt = input.ends_at ? new Date(input.ends_at) : null;
  const identity: repo.GrantIdentity = {
    source: input.source,
    source_ref: input.source_ref ?? null,
    customer: input.customer ?? null,
    contact_hash: input.contact_hash?.toLowerCase() ?? null,
    resource_type: resource.type,
    resource_id: resource.id,
  };
  try {
    const created = endsAt && endsAt.getTime() <= now.getTime() ? null : await grantIfNew(deps, scope, input, identity, endsAt, now);
    if (created) return { created: true, entitlement: created };
    // The grant exists (or ended already): the repeat's rules, under the existing entitlement's row lock.
    await assertResourceExists(deps.db, scope, resource);
    const granted = await deps.db.transaction().execute(async (trx) => {
      const existing = await repo.findEntitlementByGrant(trx, scope, identity, { forUpdate: true });
      if (!existing) {
        // The fast path inserts every other new grant, so only one that already ended gets here.
        throw ApiError.of('validation_failed', { param: 'ends_at', details: { ends_at: ['Must be in the future.'] } });
      }
      if (existing.status === 'revoked') {
        throw ApiError.of('entitlement_revoked', {
          message: `The matching entitlement ${existing.id} was revoked; grant again with a new \`source_ref\`.`,
          details: { entitlement: existing.id },
        });
      }
      if (endsAt && existing.ends_at && endsAt.getTime() > existing.ends_at.getTime()) {
        const before = effectiveStatus(existing, now);
        const reopened = existing.status === 'expired' && endsAt.getTime() > now.getTime();
        const row = await repo.updateEntitlement(trx, scope, existing.id, { ends_at: endsAt, ...(reopened && { status: 'active' }) }, now);
        const previous: Record<string, unknown> = { ends_at: existing.ends_at.toISOString() };
        if (effectiveStatus(row, now) !== before) previous.status = before;
        return { created: false, entitlement: await emitEntitlementEvent(trx, scope, 'access.entitlement.extended', row, now, previous) };
      }
      return { created: false, entitlement: serializeEntitlement(existing, now) };
    });
    deps.entitlementCache.changed(scope, granted.entitlement);
    return granted;
  } catch (err) {
    if (isUniqueViolation(err, 'entitlements_external_id')) throw ApiError.of('external_id_taken', { param: 'external_id' });
    throw err;
  }
}
