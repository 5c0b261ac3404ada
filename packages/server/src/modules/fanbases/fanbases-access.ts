import type { AppContext } from '../../core/context';
import { ApiError } from '../../core/errors';
import type { TenantPrincipal } from '../../core/principal';
import { organizationsGranting, requireOrganizationPermission } from '../identity';

export type FanbasesPermission = 'fanbases:read' | 'fanbases:write';

/**
 * A signed-in member needs `permission` in the fanbase's organization (their tenant role, or their role in it);
 * keys were checked by scope already.
 */
export async function requireFanbasePermission(ctx: AppContext, caller: TenantPrincipal, organizationId: string, permission: FanbasesPermission) {
  if (caller.kind !== 'user') return;
  await requireOrganizationPermission(ctx, caller.scope.tenantId, caller.userId, organizationId, permission);
}

/** The organizations whose fanbases a caller lists: `null` for all (keys, tenant staff with the permission). */
export async function listableOrganizations(ctx: AppContext, caller: TenantPrincipal, permission: FanbasesPermission): Promise<string[] | null> {
  if (caller.kind !== 'user') return null;
  const granting = await organizationsGranting(ctx, caller.scope, caller.userId, permission);
  return granting.tenant ? null : granting.organizations;
}

/**
 * The signed-in customer behind a customer route: a person's identity access token (their `cus_` customer), or a
 * customer token beside a publishable key (its `sub`).
 */
export function customerOf(caller: TenantPrincipal): string | null {
  if (caller.kind === 'user') return caller.customerId;
  if (caller.kind === 'customer') return caller.customer;
  return null;
}

export function requireCustomer(caller: TenantPrincipal): string {
  const customer = customerOf(caller);
  if (customer === null) throw ApiError.of('insufficient_permissions', { message: 'Sign in as a customer of this tenant.' });
  return customer;
}
