import type { AppContext } from '../../core/context';
import type { TenantPrincipal } from '../../core/principal';
import { organizationsGranting, requireOrganizationPermission } from '../identity';

/** Organizer callers: a secret or restricted key (the whole environment), or a signed-in member. */
export type OrganizerCaller = Extract<TenantPrincipal, { kind: 'secret' | 'restricted' | 'user' }>;
export type PromoterPermission = 'promoters:read' | 'promoters:write' | 'promoters:payout';

/** A member acts on an organization's promoters only through a role granting the permission there (or the tenant's). */
export async function requirePromoterPermission(ctx: AppContext, caller: OrganizerCaller, organizationId: string, permission: PromoterPermission) {
  if (caller.kind === 'user') await requireOrganizationPermission(ctx, caller.scope.tenantId, caller.userId, organizationId, permission);
}

/** The organizations whose promoters a caller may read: every one (`null`) for keys and staff, else the member's. */
export async function readableOrganizations(ctx: AppContext, caller: OrganizerCaller): Promise<string[] | null> {
  if (caller.kind !== 'user') return null;
  const granted = await organizationsGranting(ctx, caller.scope, caller.userId, 'promoters:read');
  return granted.tenant ? null : granted.organizations;
}
