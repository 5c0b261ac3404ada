import type { AppContext } from '../../core/context';
import type { TenantPrincipal } from '../../core/principal';
import { organizationsGranting, requireOrganizationPermission } from '../identity';

export type CommercePermission = 'commerce:read' | 'commerce:write';

/** A signed-in member needs the permission in the organization that sells; keys were checked by scope already. */
export async function requireCommercePermission(ctx: AppContext, caller: TenantPrincipal, organizationId: string, permission: CommercePermission) {
  if (caller.kind === 'user') await requireOrganizationPermission(ctx, caller.scope.tenantId, caller.userId, organizationId, permission);
}

/** The organizations whose products a caller may list: every one (`null`) for keys and staff, else the member's. */
export async function readableOrganizations(ctx: AppContext, caller: TenantPrincipal): Promise<string[] | null> {
  if (caller.kind !== 'user') return null;
  const granted = await organizationsGranting(ctx, caller.scope, caller.userId, 'commerce:read');
  return granted.tenant ? null : granted.organizations;
}

export const nowOf = (ctx: AppContext) => (ctx.clock ? ctx.clock() : new Date());
