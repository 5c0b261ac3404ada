import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { emitEvent } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';
import type { MembershipRow } from '../../../db/fanbases.schema';
import type { DB } from '../../../db/schema';
import { syncHoldingEntitlements } from '../../access';
import { nowOf } from '../clock';
import { limitsOf, resourcesOf } from '../tiers/tier-resources';
import * as tiers from '../tiers/tier-rows.service';
import * as repo from './memberships.repository';
import { serializeMembership } from './memberships.serializer';

/** The tier of a live subscription (`active` or `past_due`) of the membership, if any. */
async function subscribedTier(trx: Transaction<DB>, scope: Scope, m: MembershipRow): Promise<string | null> {
  if (!m.subscription_id) return null;
  const sub = await trx.selectFrom('subscriptions').select(['tier_id', 'status']).where('id', '=', m.subscription_id).where('tenant_id', '=', scope.tenantId).executeTakeFirst();
  return sub && (sub.status === 'active' || sub.status === 'past_due') ? sub.tier_id : null;
}

/**
 * Brings one locked membership's `tier` and its own entitlements to what its state says, in the caller's
 * transaction: the published free tier's grants (source `membership_tier`) for every active member, the comp
 * tier's (source `comp`, until `ends_at`) for a comp member; none once it is `left`. A tier change is
 * `fanbases.membership.updated` unless `quiet` (the caller emits its own event). Answers the row after.
 */
export async function settleMembership(trx: Transaction<DB>, scope: Scope, m: MembershipRow, now: Date, options: { quiet?: boolean } = {}): Promise<MembershipRow> {
  const active = m.status === 'active';
  const free = active ? await tiers.publishedFreeTier(trx, scope, m.fanbase_id) : undefined;
  const comp = active && m.comp_tier_id ? await tiers.findTier(trx, scope, m.fanbase_id, m.comp_tier_id) : undefined;
  const tierId = active ? ((await subscribedTier(trx, scope, m)) ?? comp?.id ?? free?.id ?? null) : null;
  const holder = { customer: m.customer, sourceRef: m.id };
  await syncHoldingEntitlements(trx, scope, { ...holder, source: 'membership_tier' }, free ? await resourcesOf(trx, scope, free) : [], { endsAt: null, limits: free ? limitsOf(free) : null }, now);
  await syncHoldingEntitlements(trx, scope, { ...holder, source: 'comp' }, comp ? await resourcesOf(trx, scope, comp) : [], { endsAt: m.ends_at, limits: comp ? limitsOf(comp) : null }, now);
  if (tierId === m.tier_id) return m;
  const updated = await repo.updateMembership(trx, scope, m.id, { tier_id: tierId, updated_at: now });
  if (!options.quiet && active) {
    const [view] = await repo.findViews(trx, scope, [m.id]);
    await emitEvent(trx, scope, { type: 'fanbases.membership.updated', subject: m.id, object: serializeMembership(view!), previousAttributes: { tier: m.tier_id } });
  }
  return updated;
}

/** Settles one membership in its own transaction (the tier sync's step; a subscription's change). */
export async function settleMembershipById(ctx: AppContext, scope: Scope, id: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const m = await repo.lockMembership(trx, scope, id);
    if (m) await settleMembership(trx, scope, m, nowOf(ctx));
  });
}

/** Every membership a tier's change may touch: all active members for the free tier, else its comp members and subscribers. */
export async function syncMembershipsOfTier(ctx: AppContext, scope: Scope, fanbaseId: string, tierId: string): Promise<void> {
  const tier = await tiers.findTier(ctx.db, scope, fanbaseId, tierId);
  if (!tier) return;
  const onlyHolders = Number(tier.price) > 0 ? tierId : undefined;
  let after = '';
  for (;;) {
    const ids = await repo.membershipIdsAfter(ctx.db, scope, fanbaseId, after, 200, onlyHolders);
    for (const id of ids) await settleMembershipById(ctx, scope, id);
    if (ids.length < 200) break;
    after = ids.at(-1)!;
  }
  for (const hook of tierHooks) await hook(ctx, scope, tier);
}

/** What else follows a tier's change (subscriptions' entitlements), registered by their resource. */
const tierHooks: Array<(ctx: AppContext, scope: Scope, tier: Awaited<ReturnType<typeof tiers.findTier>> & object) => Promise<void>> = [];
export const onTierChanged = (hook: (typeof tierHooks)[number]) => void tierHooks.push(hook);
