import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { TenantPrincipal } from '../../../core/principal';
import { getOrganizationRow, organizationsGranting, requireOrganizationPermission } from '../../identity';

/** The callers of organizer routes: a secret or restricted key (the whole environment), or a signed-in member. */
export type OrganizerCaller = Extract<TenantPrincipal, { kind: 'secret' | 'restricted' | 'user' }>;
type Level = 'read' | 'write';

const organizationParam = (message: string) =>
  ApiError.of('validation_failed', { param: 'organization', message, details: { organization: [message] } });

/**
 * The organization a new event belongs to. A key names it; a member may leave it out when they belong to exactly
 * one organization of the environment. A member needs `events:write` in it (or from their staff role).
 */
export async function organizationForNewEvent(ctx: AppContext, caller: OrganizerCaller, given: string | undefined) {
  let id = given;
  if (id === undefined) {
    if (caller.kind !== 'user') throw organizationParam('Name the organization (`org_…`) the event belongs to.');
    const { memberOf } = await organizationsGranting(ctx, caller.scope, caller.userId, 'events:write');
    if (memberOf.length !== 1) throw organizationParam('You belong to more or fewer than one organization: name the organization.');
    id = memberOf[0]!;
  }
  const org = await getOrganizationRow(ctx.db, caller.scope, id).catch((err: unknown) => {
    if (err instanceof ApiError && err.code === 'resource_not_found') throw organizationParam(`No such organization: '${id}'.`);
    throw err;
  });
  if (caller.kind === 'user') await requireOrganizationPermission(ctx, caller.scope.tenantId, caller.userId, org.id, 'events:write');
  return org;
}

/** A member reaches an event only through a role that grants the permission in its organization (or the tenant). */
export async function requireEventPermission(ctx: AppContext, caller: OrganizerCaller, organizationId: string, level: Level) {
  if (caller.kind === 'user') await requireOrganizationPermission(ctx, caller.scope.tenantId, caller.userId, organizationId, `events:${level}`);
}

/** The organizations whose events a caller may list: every one (`null`) for keys and staff, else the member's. */
export async function readableOrganizations(ctx: AppContext, caller: OrganizerCaller): Promise<string[] | null> {
  if (caller.kind !== 'user') return null;
  const granted = await organizationsGranting(ctx, caller.scope, caller.userId, 'events:read');
  return granted.tenant ? null : granted.organizations;
}
