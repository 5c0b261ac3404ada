import { ORGANIZATION_ROLE_PERMISSIONS, TENANT_ROLE_PERMISSIONS, type OrganizationRole, type TenantRole } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { MemberRole } from '../identity-caches';
import { cachesOf } from '../identity-parts';

/** The permissions a staff or organization role grants (an organization's only within it). */
const grantsOf = (organizationId: string | null, role: string): readonly string[] =>
  (organizationId === null ? TENANT_ROLE_PERMISSIONS[role as TenantRole] : ORGANIZATION_ROLE_PERMISSIONS[role as OrganizationRole]) ?? [];

/**
 * What a signed-in person may do in a tenant: the permissions of their staff role and of their organization
 * roles (the route metadata's check; routes on one organization then check that organization's role). Looked up
 * per request and kept at most 60 s; a member change clears it on every process.
 */
export async function memberPermissions(ctx: AppContext, tenantId: string, userId: string): Promise<readonly string[]> {
  const key = `${tenantId}:${userId}`;
  const cached = cachesOf(ctx).permissions.get(key);
  if (cached) return cached;
  const readAt = cachesOf(ctx).permissions.generation;
  const rows = await ctx.db
    .selectFrom('members')
    .select(['organization_id', 'role'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .execute();
  const permissions = [...new Set(rows.flatMap((r) => grantsOf(r.organization_id, r.role)))];
  cachesOf(ctx).permissions.set(key, permissions, readAt);
  return permissions;
}

/**
 * A person's active memberships in a tenant, with each organization's environment: read per request by the
 * organizer routes, so kept at most 60 s like the permissions, and cleared with them on every process.
 */
async function memberRoles(ctx: AppContext, tenantId: string, userId: string): Promise<readonly MemberRole[]> {
  const key = `${tenantId}:${userId}`;
  const cache = cachesOf(ctx).roles;
  const cached = cache.get(key);
  if (cached) return cached;
  const readAt = cache.generation;
  const rows = await ctx.db
    .selectFrom('members')
    .leftJoin('organizations', 'organizations.id', 'members.organization_id')
    .select(['members.organization_id', 'members.role', 'organizations.livemode'])
    .where('members.tenant_id', '=', tenantId)
    .where('members.user_id', '=', userId)
    .where('members.status', '=', 'active')
    .execute();
  cache.set(key, rows, readAt);
  return rows;
}

/** The person holds a role in the tenant itself (staff), not only in some of its organizations. */
export async function isTenantStaff(ctx: AppContext, tenantId: string, userId: string): Promise<boolean> {
  return (await memberRoles(ctx, tenantId, userId)).some((r) => r.organization_id === null);
}

/** `403 missing_permission` unless the tenant role, or the role in this organization, grants `permission`. */
export async function requireOrganizationPermission(ctx: AppContext, tenantId: string, userId: string, organizationId: string, permission: string) {
  const rows = await memberRoles(ctx, tenantId, userId);
  const relevant = rows.filter((r) => r.organization_id === null || r.organization_id === organizationId);
  if (relevant.some((r) => grantsOf(r.organization_id, r.role).includes(permission))) return;
  throw ApiError.of('missing_permission', {
    message: `Your role in this organization does not grant ${permission}.`,
    details: { required_permission: permission },
  });
}

/** `403 missing_permission` unless the person's role grants `permission`. */
export async function requirePermission(ctx: AppContext, tenantId: string, userId: string, permission: string): Promise<void> {
  const granted = await memberPermissions(ctx, tenantId, userId);
  if (!granted.includes(permission)) {
    throw ApiError.of('missing_permission', {
      message: `Your role does not grant ${permission}.`,
      details: { required_permission: permission },
    });
  }
}

/**
 * Where a signed-in person's roles grant `permission` in one environment: `tenant` when their staff role does
 * (every organization), else the ids of the organizations whose role does. Organization-scoped products
 * (ticketing) filter their lists with it.
 */
export async function organizationsGranting(
  ctx: AppContext,
  scope: { tenantId: string; livemode: boolean },
  userId: string,
  permission: string,
): Promise<{ tenant: boolean; organizations: string[]; memberOf: string[] }> {
  const rows = await memberRoles(ctx, scope.tenantId, userId);
  const inEnvironment = rows.filter((r) => r.organization_id !== null && r.livemode === scope.livemode);
  return {
    tenant: rows.some((r) => r.organization_id === null && grantsOf(null, r.role).includes(permission)),
    organizations: inEnvironment.filter((r) => grantsOf(r.organization_id, r.role).includes(permission)).map((r) => r.organization_id!),
    memberOf: [...new Set(inEnvironment.map((r) => r.organization_id!))],
  };
}
