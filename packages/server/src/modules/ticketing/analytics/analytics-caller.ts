import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { getOrganizationRow, organizationAccessOf, organizationsGranting, requireOrganizationPermission } from '../../identity';
import type { OrganizerCaller } from '../organizer/organizer-access';

export interface AnalyticsCaller {
  organization: { id: string; timezone: string; currency: string };
  /** Revenue figures are shown: secret keys, organization owners and admins, tenant owners and admins. */
  revenueVisible: boolean;
}

const organizationParam = (message: string) =>
  ApiError.of('validation_failed', { param: 'organization', message, details: { organization: [message] } });

async function onlyOrganization(ctx: AppContext, caller: OrganizerCaller): Promise<string> {
  if (caller.kind === 'user') {
    const { memberOf } = await organizationsGranting(ctx, caller.scope, caller.userId, 'events:read');
    if (memberOf.length === 1) return memberOf[0]!;
    throw organizationParam('You belong to more or fewer than one organization: name the `organization`.');
  }
  const rows = await ctx.db
    .selectFrom('organizations')
    .select('id')
    .where('tenant_id', '=', caller.scope.tenantId)
    .where('livemode', '=', caller.scope.livemode)
    .limit(2)
    .execute();
  if (rows.length === 1) return rows[0]!.id;
  throw organizationParam('Name the `organization` (`org_…`) to report on.');
}

/**
 * The organization a caller reads analytics of (the `organization` query, or the only one they have) and whether
 * they see revenue. Owners and admins are told apart from other roles by `organization_members:write`, which only
 * they hold in an organization; tenant owners and admins by `members:write`.
 */
export async function analyticsCallerOf(ctx: AppContext, caller: OrganizerCaller, given: string | undefined): Promise<AnalyticsCaller> {
  const id = given ?? (await onlyOrganization(ctx, caller));
  const org = await getOrganizationRow(ctx.db, caller.scope, id).catch((err: unknown) => {
    if (err instanceof ApiError && err.code === 'resource_not_found') throw organizationParam(`No such organization: '${id}'.`);
    throw err;
  });
  let revenueVisible = caller.kind === 'secret';
  if (caller.kind === 'user') {
    await requireOrganizationPermission(ctx, caller.scope.tenantId, caller.userId, org.id, 'events:read');
    revenueVisible =
      (await organizationAccessOf(ctx.db, caller.scope.tenantId, caller.userId, org.id, 'organization_members:write')) === 'granted' ||
      (await organizationsGranting(ctx, caller.scope, caller.userId, 'members:write')).tenant;
  }
  return { organization: { id: org.id, timezone: org.timezone, currency: org.currency }, revenueVisible };
}
