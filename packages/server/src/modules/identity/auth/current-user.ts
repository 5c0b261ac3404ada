import type { AppContext } from '../../../core/context';
import type { UserPrincipal } from './access-tokens';

/** The signed-in person, their customer here and their memberships in this tenant. */
export async function currentUser(ctx: AppContext, principal: UserPrincipal) {
  const user = await ctx.db.selectFrom('users').select(['id', 'phone', 'email']).where('id', '=', principal.userId).executeTakeFirstOrThrow();
  const members = await ctx.db
    .selectFrom('members')
    .select(['id', 'organization_id', 'role', 'status'])
    .where('tenant_id', '=', principal.tenant.id)
    .where('user_id', '=', principal.userId)
    .orderBy('id')
    .execute();
  return {
    ...user,
    customer: principal.customerId!,
    tenant: principal.tenant.id,
    livemode: principal.scope.livemode,
    memberships: members.map((m) => ({ member: m.id, organization: m.organization_id, role: m.role, status: m.status })),
  };
}
