import type { AccessCheckResult, AccessDenialReason } from '@svc/contract';
import type { EntitlementRow } from '../../../db/access.schema';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import type { AccessDeps } from '../access-deps';
import type { AccessResource } from '../resources';
import { entitlementKey } from './entitlement-cache';
import { chooseEntitlement, type ViewerPlace } from './entitlement-rules';
import { findEntitlementsFor, type Subject } from './entitlements.repository';
import { serializeEntitlement } from './entitlements.serializer';

/**
 * The entitlement that decides whether the subject may use the resource now, and if not, why. Served from
 * the entitlement cache when it lets the viewer in; a refusal is always read from the database.
 */
export async function decideAccess(
  deps: AccessDeps,
  scope: Scope,
  subject: Subject,
  resource: Pick<AccessResource, 'type' | 'id'>,
  place: ViewerPlace,
  now: Date,
): Promise<{ row: EntitlementRow | null; reason: AccessDenialReason | null }> {
  const key = entitlementKey(scope, subject, resource);
  const cached = deps.entitlementCache.get(key);
  if (cached) {
    const decided = chooseEntitlement(cached, now, place);
    if (decided.reason === null) return decided;
  }
  const rows = await deps.entitlementCache.read(key, () => findEntitlementsFor(deps.db, scope, subject, resource));
  return chooseEntitlement(rows, now, await withTrust(deps, scope, rows, place));
}

/** Asks whether the viewer's host is a trusted custom domain only when an `allowed_domains` would refuse it. */
async function withTrust(deps: AccessDeps, scope: Scope, rows: readonly EntitlementRow[], place: ViewerPlace): Promise<ViewerPlace> {
  const host = place.domain;
  if (!host || !deps.trustedHost || place.trusted !== undefined) return place;
  const refused = rows.some((r) => r.limits.allowed_domains && !r.limits.allowed_domains.includes(host));
  return refused ? { ...place, trusted: await deps.trustedHost(scope, host) } : place;
}

export async function checkAccess(
  deps: AccessDeps,
  scope: Scope,
  input: { customer?: string; contact_hash?: string; resource: { type: 'ls' | 'ast'; id: string }; country?: string; domain?: string },
): Promise<AccessCheckResult> {
  const now = deps.now();
  const subject: Subject = { customer: input.customer ?? null, contact_hash: input.contact_hash?.toLowerCase() ?? null };
  const place = { country: input.country ?? null, domain: input.domain ?? null };
  const { row, reason } = await decideAccess(deps, scope, subject, input.resource, place, now);
  return { allowed: reason === null, reason, entitlement: row ? serializeEntitlement(row, now) : null };
}

/** `403 access_denied` with the check's reason, for session opens. */
export const accessDenied = (reason: AccessDenialReason, entitlement: string | null) =>
  ApiError.of('access_denied', {
    message: `Access refused: ${reason.replace(/_/g, ' ')}.`,
    details: entitlement ? { reason, entitlement } : { reason },
  });
