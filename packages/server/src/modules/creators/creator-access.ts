import type { AppContext } from '../../core/context';
import { ApiError } from '../../core/errors';
import type { TenantPrincipal } from '../../core/principal';
import { findOrganizationByHandle, organizationAccessOf, type OrganizationRow } from '../identity';

export type CreatorCaller = Extract<TenantPrincipal, { kind: 'secret' | 'restricted' | 'user' }>;

/** Who made a decision, as the history records it: a signed-in person or an API key. */
export interface Actor {
  type: 'user' | 'api_key';
  id: string;
}

export const actorFrom = (caller: CreatorCaller): Actor =>
  caller.kind === 'user' ? { type: 'user', id: caller.userId } : { type: 'api_key', id: caller.key.id };

/** The creator organization with this handle in the caller's scope: `404` when unknown or not a creator. */
export async function findCapsuleOrganization(ctx: AppContext, scope: TenantPrincipal['scope'], handle: string): Promise<OrganizationRow> {
  const org = await findOrganizationByHandle(ctx.db, scope, handle);
  if (!org || org.kind !== 'creator') throw ApiError.notFound('capsule', handle);
  return org;
}

/**
 * The creator organization a creator route works on. A signed-in person must hold a role in it (else `404`:
 * another organization's capsule is not theirs to know of) whose grants include `permission` (else `403`).
 * API keys act for the whole tenant.
 */
export async function creatorOrganization(ctx: AppContext, caller: CreatorCaller, handle: string, permission: 'capsules:read' | 'capsules:write') {
  const org = await findCapsuleOrganization(ctx, caller.scope, handle);
  if (caller.kind === 'user') {
    const access = await organizationAccessOf(ctx.db, org.tenant_id, caller.userId, org.id, permission);
    if (access === 'not_member') throw ApiError.notFound('capsule', handle);
    if (access === 'denied') {
      throw ApiError.of('missing_permission', {
        message: `Your role in this organization does not grant ${permission}.`,
        details: { required_permission: permission },
      });
    }
  }
  return org;
}
