import { TENANT_ROLE_PERMISSIONS, type TenantRole } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { cachesOf } from '../identity-parts';

/**
 * What a signed-in person may do in a tenant: the permissions of their staff role. Looked up per request and
 * kept at most 60 s; a member change clears it on every process.
 */
export async function memberPermissions(ctx: AppContext, tenantId: string, userId: string): Promise<readonly string[]> {
  const key = `${tenantId}:${userId}`;
  const cached = cachesOf(ctx).permissions.get(key);
  if (cached) return cached;
  const readAt = cachesOf(ctx).permissions.generation;
  const row = await ctx.db
    .selectFrom('members')
    .select('role')
    .where('tenant_id', '=', tenantId)
    .where('organization_id', 'is', null)
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  const permissions = row ? (TENANT_ROLE_PERMISSIONS[row.role as TenantRole] ?? []) : [];
  cachesOf(ctx).permissions.set(key, permissions, readAt);
  return permissions;
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
