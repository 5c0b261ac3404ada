import { ORGANIZATION_ROLE_PERMISSIONS, TENANT_ROLE_PERMISSIONS, type OrganizationRole, type TenantRole } from '@svc/contract';

export interface Membership {
  member: string;
  organization: string | null;
  role: string;
  status: string;
}

/**
 * What the signed-in member may do, from their active memberships and the contract's role tables: the console
 * shows only what the API would allow (the API still decides every call).
 */
export function permissionsOf(memberships: readonly Membership[], options: { tenantOnly?: boolean } = {}): Set<string> {
  const granted = new Set<string>();
  for (const m of memberships) {
    if (m.status !== 'active') continue;
    // Some writes (the environment's settings) are the tenant's: only a tenant role grants them.
    if (options.tenantOnly && m.organization !== null) continue;
    const perms =
      m.organization === null ? TENANT_ROLE_PERMISSIONS[m.role as TenantRole] : ORGANIZATION_ROLE_PERMISSIONS[m.role as OrganizationRole];
    for (const p of perms ?? []) granted.add(p);
  }
  return granted;
}

/** Staff (a role in the tenant itself) switch between test and live data; organization members stay where they signed in. */
export const isStaff = (memberships: readonly Membership[]) => memberships.some((m) => m.status === 'active' && m.organization === null);
