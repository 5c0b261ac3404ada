import type { CursorPageQuery, Subscription } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { TenantPrincipal } from '../../../core/principal';
import type { Scope } from '../../../core/scope';
import type { SubscriptionRow } from '../../../db/fanbases.schema';
import type { DB } from '../../../db/schema';
import type { SavedCardDependents } from '../../payments';
import { nowOf } from '../clock';
import { checkCustomerExpand, expandCustomers } from '../customer-expand';
import { listableOrganizations, requireFanbasePermission, type FanbasesPermission } from '../fanbases-access';
import { findFanbaseRow } from '../fanbases/fanbases.service';
import { findTier } from '../tiers/tier-rows.service';
import { addDays, addHours } from './periods';
import { openRenewal, renewAt } from './renew-subscriptions';
import { queueRenewalPrompt } from './renewal-prompt.job';
import { applyMove, cancelNow } from './subscription-moves';
import * as repo from './subscriptions.repository';
import { serializeSubscription } from './subscriptions.serializer';

const refused = (sub: SubscriptionRow, action: string) =>
  ApiError.of('invalid_state_transition', { message: `A ${sub.status} subscription cannot ${action}.`, details: { status: sub.status, event: action } });

/** Runs `work` on the subscription under its row lock, and answers it as the API shows it after. */
async function locked(ctx: AppContext, scope: Scope, id: string, work: (trx: Transaction<DB>, sub: SubscriptionRow, now: Date) => Promise<SubscriptionRow | void>): Promise<Subscription> {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const sub = await repo.findSubscription(trx, scope, id, { forUpdate: true });
    if (!sub) throw ApiError.notFound('subscription', id);
    return (await work(trx, sub, nowOf(ctx))) ?? (await repo.findSubscription(trx, scope, id))!;
  });
  return serializeSubscription(row);
}

/** An organizer's subscription: unknown `404`, another organization's for a member `403`. */
async function organizerSubscription(ctx: AppContext, caller: TenantPrincipal, id: string, permission: FanbasesPermission) {
  const sub = await repo.findSubscription(ctx.db, caller.scope, id);
  if (!sub) throw ApiError.notFound('subscription', id);
  await requireFanbasePermission(ctx, caller, sub.organization_id, permission);
  return sub;
}

/** A fan's own subscription: another customer's is `404`. */
async function ownSubscription(ctx: AppContext, scope: Scope, customer: string, id: string) {
  const sub = await repo.findSubscription(ctx.db, scope, id);
  if (!sub || sub.customer !== customer) throw ApiError.notFound('subscription', id);
  return sub;
}

export async function getSubscription(ctx: AppContext, caller: TenantPrincipal, id: string, expand?: string[]) {
  await checkCustomerExpand(ctx, caller.scope, expand);
  const sub = serializeSubscription(await organizerSubscription(ctx, caller, id, 'fanbases:read'));
  return (await expandCustomers(ctx, caller.scope, [sub], expand))[0]!;
}

export async function listSubscriptions(
  ctx: AppContext,
  caller: TenantPrincipal,
  filters: Omit<repo.SubscriptionFilters, 'organizations'>,
  page: CursorPageQuery,
  expand?: string[],
) {
  await checkCustomerExpand(ctx, caller.scope, expand);
  const organizations = await listableOrganizations(ctx, caller, 'fanbases:read');
  const result = await repo.listSubscriptions(ctx.db, caller.scope, { ...filters, organizations }, page);
  return { ...result, data: await expandCustomers(ctx, caller.scope, result.data.map(serializeSubscription), expand) };
}

/** Cancels now or at the period end; a cancelled subscription is answered as it is, an expired one refused. */
async function cancel(ctx: AppContext, scope: Scope, id: string, atPeriodEnd: boolean, reason: 'customer' | 'organizer') {
  return locked(ctx, scope, id, async (trx, sub, now) => {
    if (sub.status === 'cancelled') return sub;
    if (sub.status === 'expired') throw refused(sub, 'be cancelled');
    // Only a paid, running period can be finished; `one_time` has no end to wait for.
    if (atPeriodEnd && sub.status === 'active' && sub.current_period_end) {
      if (sub.cancel_at_period_end) return sub;
      return applyMove(trx, scope, sub, { cancel_at_period_end: true, cancellation_reason: reason, next_attempt_at: sub.current_period_end }, 'fanbases.subscription.updated', 'keep', now);
    }
    return cancelNow(trx, scope, sub, reason, now);
  });
}

async function resume(ctx: AppContext, scope: Scope, id: string) {
  return locked(ctx, scope, id, async (trx, sub, now) => {
    if (sub.status !== 'active') throw refused(sub, 'be resumed');
    if (!sub.cancel_at_period_end) return sub;
    const fanbase = (await findFanbaseRow(trx, scope, sub.fanbase_id))!;
    const notice = addHours(sub.current_period_end!, -fanbase.renewal_notice_hours);
    return applyMove(trx, scope, sub, { cancel_at_period_end: false, cancellation_reason: null, next_attempt_at: sub.attempts > 0 ? sub.current_period_end : notice }, 'fanbases.subscription.updated', 'keep', now);
  });
}

export async function cancelByOrganizer(ctx: AppContext, caller: TenantPrincipal, id: string, atPeriodEnd: boolean) {
  await organizerSubscription(ctx, caller, id, 'fanbases:write');
  return cancel(ctx, caller.scope, id, atPeriodEnd, 'organizer');
}

export async function resumeByOrganizer(ctx: AppContext, caller: TenantPrincipal, id: string) {
  await organizerSubscription(ctx, caller, id, 'fanbases:write');
  return resume(ctx, caller.scope, id);
}

/** Fans cancel at the period end, except while `past_due` or `incomplete` (at once). */
export async function cancelByFan(ctx: AppContext, scope: Scope, customer: string, id: string) {
  await ownSubscription(ctx, scope, customer, id);
  return cancel(ctx, scope, id, true, 'customer');
}

export async function resumeByFan(ctx: AppContext, scope: Scope, customer: string, id: string) {
  await ownSubscription(ctx, scope, customer, id);
  return resume(ctx, scope, id);
}

/** `…/renew`: pay early or during the grace: the period's renewal order, opened now if the notice has not yet. */
export async function renewByFan(ctx: AppContext, scope: Scope, customer: string, id: string) {
  await ownSubscription(ctx, scope, customer, id);
  return locked(ctx, scope, id, async (trx, sub, now) => {
    if ((sub.status !== 'active' && sub.status !== 'past_due') || sub.interval === 'one_time' || sub.cancel_at_period_end) throw refused(sub, 'be renewed');
    if (sub.attempts > 0) {
      // The order is open already: a fresh prompt (one a minute at most) in `prompt` mode.
      await queueRenewalPrompt(trx, ctx, scope, sub, Number(sub.amount), now, `fan:${Math.floor(now.getTime() / 60_000)}`);
      return sub;
    }
    return openRenewal(trx, ctx, scope, sub, (await findFanbaseRow(trx, scope, sub.fanbase_id))!, now);
  });
}

/** `…/change_tier`: a published paid tier of the same fanbase and interval, taking effect at the next renewal. */
export async function changeTierByFan(ctx: AppContext, scope: Scope, customer: string, id: string, tierId: string) {
  const own = await ownSubscription(ctx, scope, customer, id);
  const tier = await findTier(ctx.db, scope, own.fanbase_id, tierId);
  if (!tier) throw ApiError.of('resource_not_found', { param: 'tier', message: `No such membership tier: '${tierId}'.` });
  if (tier.status !== 'published' || Number(tier.price) === 0 || tier.interval !== own.interval) {
    const reason = Number(tier.price) === 0 ? 'free_tier' : tier.status === 'archived' ? 'archived' : tier.status !== 'published' ? 'not_published' : 'interval';
    throw ApiError.of('tier_unavailable', { param: 'tier', message: `The subscription cannot change to this tier (${reason}).`, details: { reason } });
  }
  return locked(ctx, scope, id, async (trx, sub, now) => {
    if (sub.status !== 'active' && sub.status !== 'past_due') throw refused(sub, 'change tier');
    const pending = tier.id === sub.tier_id ? null : tier.id;
    if (pending === sub.pending_tier_id) return sub;
    return applyMove(trx, scope, sub, { pending_tier_id: pending }, 'fanbases.subscription.updated', 'keep', now);
  });
}

export async function mySubscriptions(ctx: AppContext, scope: Scope, customer: string) {
  return { data: (await repo.subscriptionsOfCustomer(ctx.db, scope, customer)).map(serializeSubscription) };
}

/**
 * Test helper: the renewal job run at the subscription's next moment of `to` (its clock moved there, the
 * service's not): the renewal notice, the period end, or the grace end.
 */
export async function advanceSubscription(ctx: AppContext, scope: Scope, id: string, to: 'renewal_notice' | 'period_end' | 'grace_end') {
  const sub = await repo.findSubscription(ctx.db, scope, id);
  if (!sub) throw ApiError.notFound('subscription', id);
  if ((sub.status !== 'active' && sub.status !== 'past_due') || !sub.current_period_end) throw refused(sub, 'advance');
  const fanbase = (await findFanbaseRow(ctx.db, scope, sub.fanbase_id))!;
  const end = sub.current_period_end;
  const moment =
    to === 'renewal_notice' ? addHours(end, -fanbase.renewal_notice_hours) : to === 'period_end' ? end : (sub.grace_ends_at ?? addDays(end, fanbase.grace_period_days));
  await renewAt(ctx, scope, id, moment);
  return serializeSubscription((await repo.findSubscription(ctx.db, scope, id))!);
}

/** What ends with a membership: leaving is refused while a subscription is paid for; removal cancels it now. */
export async function endWithMembership(trx: Transaction<DB>, scope: Scope, membership: { subscription_id: string | null }, how: 'left' | 'removed', now: Date) {
  if (!membership.subscription_id) return;
  const sub = await repo.findSubscription(trx, scope, membership.subscription_id, { forUpdate: true });
  if (!sub || sub.status === 'cancelled' || sub.status === 'expired') return;
  if (how === 'left' && (sub.status === 'active' || sub.status === 'past_due')) {
    throw ApiError.of('subscription_active', { message: 'Cancel the subscription before leaving.' });
  }
  await cancelNow(trx, scope, sub, how === 'left' ? 'customer' : 'member_removed', now);
}

/** The live subscriptions of a tier whose grants changed: their entitlements follow (the tier sync's hook). */
export async function syncSubscriptionsOfTier(ctx: AppContext, scope: Scope, tierId: string) {
  let after = '';
  for (;;) {
    const ids = await repo.liveIdsOfTier(ctx.db, scope, tierId, after, 200);
    for (const id of ids) {
      await ctx.db.transaction().execute(async (trx) => {
        const sub = await repo.findSubscription(trx, scope, id, { forUpdate: true });
        if (sub && (sub.status === 'active' || sub.status === 'past_due')) await applyMove(trx, scope, sub, {}, null, 'grant', nowOf(ctx));
      });
    }
    if (ids.length < 200) return;
    after = ids.at(-1)!;
  }
}

/** How many subscriptions still charge a card kept through a payment configuration (its deletion waits for none). */
export const renewingOnConfig: SavedCardDependents = (db, scope, configId) => repo.countRenewingOnConfig(db, scope, configId);
