import type { AccessDenialReason, EntitlementStatus } from '@svc/contract';
import type { EntitlementRow } from '../../../db/access.schema';

/** Where the viewer is: the country and the player page's host, when known. */
export interface ViewerPlace {
  country: string | null;
  domain: string | null;
  /** The domain is one of the tenant's active custom domains that it trusts: `allowed_domains` admit it too. */
  trusted?: boolean;
}

type RuleRow = Pick<EntitlementRow, 'id' | 'status' | 'starts_at' | 'ends_at' | 'limits'>;

/** The status a reader sees: an `active` entitlement past its end is `expired` before the sweep records it. */
export function effectiveStatus(row: Pick<EntitlementRow, 'status' | 'ends_at'>, now: Date): EntitlementStatus {
  if (row.status === 'active' && row.ends_at && row.ends_at.getTime() <= now.getTime()) return 'expired';
  return row.status;
}

/** Why the entitlement does not let the viewer in now, or `null` when it does. */
export function denialReason(row: RuleRow, now: Date, place: ViewerPlace): AccessDenialReason | null {
  const status = effectiveStatus(row, now);
  if (status !== 'active') return status;
  if (row.starts_at && row.starts_at.getTime() > now.getTime()) return 'not_started';
  const { allowed_countries: countries, allowed_domains: domains } = row.limits;
  // A restriction the request cannot be checked against refuses it.
  if (countries && (!place.country || !countries.includes(place.country))) return 'country_not_allowed';
  if (domains && (!place.domain || !(domains.includes(place.domain) || place.trusted))) return 'domain_not_allowed';
  return null;
}

/** When none lets the viewer in, the reason reported is the one closest to being allowed. */
const CLOSENESS: readonly AccessDenialReason[] = [
  'domain_not_allowed',
  'country_not_allowed',
  'not_started',
  'suspended',
  'expired',
  'revoked',
  'no_entitlement',
];

const endOf = (row: RuleRow) => row.ends_at?.getTime() ?? Number.POSITIVE_INFINITY;

/**
 * The entitlement a check or a session uses among the customer's entitlements to the resource: one that lets
 * the viewer in (the longest-lasting, then the newest), else the one whose refusal is closest to allowed.
 */
export function chooseEntitlement<R extends RuleRow>(
  rows: readonly R[],
  now: Date,
  place: ViewerPlace,
): { row: R | null; reason: AccessDenialReason | null } {
  let best: { row: R; reason: AccessDenialReason | null } | null = null;
  for (const row of rows) {
    const reason = denialReason(row, now, place);
    if (!best) {
      best = { row, reason };
      continue;
    }
    const rank = (r: AccessDenialReason | null) => (r === null ? -1 : CLOSENESS.indexOf(r));
    const better =
      rank(reason) < rank(best.reason) ||
      (rank(reason) === rank(best.reason) && (endOf(row) > endOf(best.row) || (endOf(row) === endOf(best.row) && row.id > best.row.id)));
    if (better) best = { row, reason };
  }
  return best ?? { row: null, reason: 'no_entitlement' };
}
