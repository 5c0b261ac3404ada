import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import type { CapsuleFanbaseSource } from '../../creators';
import { effectiveConfigs } from '../../payments';
import { findFanbaseOfOrganization } from '../fanbases/fanbases.service';
import * as memberships from '../memberships/membership-rows.service';
import * as tiers from '../tiers/tier-rows.service';

/** Live mode: whether a payment configuration serves the organization (test mode: the simulator always does). */
async function paymentsServe(ctx: AppContext, scope: Scope, organizationId: string): Promise<boolean> {
  if (!scope.livemode) return true;
  return effectiveConfigs(ctx, scope, organizationId).then(
    (configs) => configs.length > 0,
    () => false,
  );
}

/** What the public capsule shows of the organization's fanbase (registered with creators at setup). */
export const capsuleFanbaseSource: CapsuleFanbaseSource = {
  memberCustomers: (db, scope, organizationId) => memberships.activeMemberCustomers(db, scope, organizationId),
  async heldTiers(ctx, scope, viewer, organizationIds) {
    const now = Date.now();
    const held = new Map<string, string[]>();
    for (const m of await memberships.activeMembershipsOfCustomer(ctx.db, scope, viewer, organizationIds)) {
      // A comp's tier opens gates until its `ends_at`.
      const compEnded = m.ends_at !== null && new Date(m.ends_at).getTime() <= now;
      held.set(m.organization_id, [m.tier_id, m.comp_tier_id].flatMap((t) => (t && !(compEnded && t === m.comp_tier_id) ? [t] : [])));
    }
    return held;
  },
  async tiersOfOrganization(ctx, scope, organizationId, ids) {
    const fanbase = await findFanbaseOfOrganization(ctx.db, scope, organizationId);
    if (!fanbase) return null;
    return new Set((await tiers.findTiersByIds(ctx.db, scope, ids)).filter((t) => t.fanbase_id === fanbase.id).map((t) => t.id));
  },
  async stateOf(ctx, scope, organizationId, viewer) {
    const fanbase = await findFanbaseOfOrganization(ctx.db, scope, organizationId);
    if (!fanbase) return { fanbase: null, active: false, hasPublishedPaidTier: false, paymentsServe: false, joinedAt: null, subscribedTier: null };
    const [published, own, serve] = await Promise.all([
      tiers.publishedTiers(ctx.db, scope, fanbase.id),
      viewer ? memberships.findOfCustomer(ctx.db, scope, fanbase.id, viewer) : undefined,
      paymentsServe(ctx, scope, organizationId),
    ]);
    const subscription = viewer
      ? await ctx.db
          .selectFrom('subscriptions')
          .select('tier_id')
          .where('fanbase_id', '=', fanbase.id)
          .where('customer', '=', viewer)
          .where('status', 'in', ['active', 'past_due'])
          .executeTakeFirst()
      : undefined;
    return {
      fanbase: fanbase.id,
      active: fanbase.status === 'active',
      hasPublishedPaidTier: published.some((t) => Number(t.price) > 0),
      paymentsServe: serve,
      joinedAt: own?.status === 'active' ? own.joined_at : null,
      subscribedTier: subscription?.tier_id ?? null,
    };
  },
};
