import type { Subscription } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { emitEvent } from '../../../core/events/emit-event';
import { newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { TierRow } from '../../../db/fanbases.schema';
import { prepareOrder } from '../../ticketing';
import { nowOf } from '../clock';
import { findPublicFanbase } from '../fanbases/fanbases.service';
import { requireKnownCustomer, requireOpen } from '../memberships/fanbase-gates';
import { findOfCustomer, updateMembership } from '../memberships/membership-rows.service';
import { activateMembership } from '../memberships/memberships.service';
import { findTier, liveSubscriptionCount } from '../tiers/tier-rows.service';
import { markTierSubscribed } from '../tiers/tiers.service';
import { addHours } from './periods';
import { createSubscriptionOrder, FIRST_ORDER_MINUTES } from './subscription-orders';
import * as repo from './subscriptions.repository';
import { serializeSubscription } from './subscriptions.serializer';

const unavailable = (reason: 'not_published' | 'archived' | 'full' | 'free_tier') =>
  ApiError.of('tier_unavailable', { param: 'tier', message: `The tier cannot be subscribed to (${reason}).`, details: { reason } });

function checkTier(tier: TierRow) {
  if (Number(tier.price) === 0) throw unavailable('free_tier');
  if (tier.status === 'archived') throw unavailable('archived');
  if (tier.status !== 'published') throw unavailable('not_published');
}

export interface SubscribeInput {
  tier: string;
  phone?: string | null;
  redirect_url?: string | null;
}

/**
 * `POST /v1/public/fanbases/{fanbase}/subscriptions`: joins the customer if needed, and makes the subscription
 * (`incomplete`) and its first order with a checkout session, in one transaction. A second live subscription
 * to the fanbase is `409 already_subscribed` (the live-subscription index decides between two at once).
 */
export async function subscribe(ctx: AppContext, scope: Scope, ref: string, customer: string, input: SubscribeInput): Promise<Subscription> {
  const fanbase = await findPublicFanbase(ctx, scope, ref);
  await requireKnownCustomer(ctx, scope, customer);
  const found = await findTier(ctx.db, scope, fanbase.id, input.tier);
  if (!found) throw ApiError.of('resource_not_found', { param: 'tier', message: `No such membership tier: '${input.tier}'.` });
  checkTier(found);
  await requireOpen(ctx, scope, fanbase, 'subscribe');
  const prepared = await prepareOrder(ctx, scope, fanbase.organization_id, Number(found.price) > 0);
  const now = nowOf(ctx);
  try {
    const row = await ctx.db.transaction().execute(async (trx) => {
      // The tier's lock orders subscribes to it, so `max_members` holds.
      const tier = (await findTier(trx, scope, fanbase.id, found.id, { forUpdate: true }))!;
      checkTier(tier);
      if (tier.max_members !== null && (await liveSubscriptionCount(trx, tier.id)) >= tier.max_members) throw unavailable('full');
      const live = await repo.listSubscriptions(trx, scope, { fanbase: fanbase.id, customer }, { limit: 100 });
      if (live.data.some((s) => s.status === 'incomplete' || s.status === 'active' || s.status === 'past_due')) throw alreadySubscribed();
      const current = await findOfCustomer(trx, scope, fanbase.id, customer);
      const membership = current?.status === 'active' ? current : (await activateMembership(trx, scope, fanbase, customer, { source: 'subscription', comp_tier_id: null, ends_at: null }, now)).row;
      const sub = await repo.insertSubscription(trx, scope, {
        id: newId('subscription'),
        fanbase_id: fanbase.id,
        organization_id: fanbase.organization_id,
        tier_id: tier.id,
        customer,
        membership_id: membership.id,
        status: 'incomplete',
        amount: Number(tier.price),
        currency: tier.currency,
        interval: tier.interval!,
        cancel_at_period_end: false,
        renewal_mode: tier.interval === 'one_time' ? 'none' : 'prompt',
        phone: input.phone ?? null,
        attempts: 0,
        created_at: now,
        updated_at: now,
      });
      await markTierSubscribed(trx, scope, tier, now);
      await updateMembership(trx, scope, membership.id, { subscription_id: sub.id, updated_at: now });
      const order = await createSubscriptionOrder(trx, ctx, scope, sub, tier, {
        start: null,
        end: null,
        amount: Number(tier.price),
        expiresAt: addHours(now, FIRST_ORDER_MINUTES / 60),
        redirectUrl: input.redirect_url ?? null,
      }, prepared);
      const created = await repo.updateSubscription(trx, scope, sub.id, { latest_order_id: order.order.id, checkout_url: order.checkoutUrl });
      await emitEvent(trx, scope, { type: 'fanbases.subscription.created', subject: sub.id, object: serializeSubscription(created) });
      return created;
    });
    return serializeSubscription(row);
  } catch (err) {
    if (isUniqueViolation(err, 'subscriptions_live')) throw alreadySubscribed();
    throw err;
  }
}

const alreadySubscribed = () => ApiError.of('already_subscribed', { message: 'The customer already has a live subscription to this fanbase.' });
