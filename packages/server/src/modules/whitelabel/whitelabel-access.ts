import type { AppContext } from '../../core/context';
import { ApiError } from '../../core/errors';
import type { TenantPrincipal } from '../../core/principal';
import { organizationsGranting, requireOrganizationPermission } from '../identity';

/**
 * A signed-in member needs `permission` where the object lives: in the organization for an organization's
 * branding or domain, in the tenant (a staff role) for the tenant's. Keys were checked by scope already.
 */
export async function requireBrandingPermission(ctx: AppContext, caller: TenantPrincipal, organizationId: string | null, permission: 'branding:read' | 'branding:write') {
  if (caller.kind !== 'user') return;
  if (organizationId) return requireOrganizationPermission(ctx, caller.scope.tenantId, caller.userId, organizationId, permission);
  const granting = await organizationsGranting(ctx, caller.scope, caller.userId, permission);
  if (!granting.tenant) {
    throw ApiError.of('missing_permission', { message: `Your tenant role does not grant ${permission}.`, details: { required_permission: permission } });
  }
}
