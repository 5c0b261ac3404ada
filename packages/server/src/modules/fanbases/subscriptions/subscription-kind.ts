import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { reusableCardPayment } from '../../payments';
import type { OrderKindHandler, OrderRow } from '../../ticketing';
import { nowOf } from '../clock';
import { findFanbaseRow } from '../fanbases/fanbases.service';
import { findTier } from '../tiers/tier-rows.service';
import { addHours, periodEnd } from './periods';
import { sendReceipt } from './subscription-messages';
import { applyMove, cancelNow, expireNow } from './subscription-moves';
import * as repo from './subscriptions.repository';

async function subscriptionOf(trx: Transaction<DB>, scope: Scope, order: OrderRow) {
  return order.subscription_id ? repo.findSubscription(trx, scope, order.subscription_id, { forUpdate: true }) : undefined;
}

/**
 * The first order paid: `active` from now for one period, the entitlements granted. A renewal order paid:
 * the next period, counted from the old end (also from `past_due`), with a pending tier taking effect.
 */
async function paid(trx: Transaction<DB>, ctx: AppContext, scope: Scope, order: OrderRow) {
  const sub = await subscriptionOf(trx, scope, order);
  if (!sub || sub.latest_order_id !== order.id) return;
  const now = nowOf(ctx);
  const fanbase = (await findFanbaseRow(trx, scope, sub.fanbase_id))!;
  const renewing = sub.status === 'active' || sub.status === 'past_due';
  if (sub.status !== 'incomplete' && !(renewing && sub.attempts > 0)) return;
  const tierId = renewing && sub.pending_tier_id ? sub.pending_tier_id : sub.tier_id;
  const tier = (await findTier(trx, scope, sub.fanbase_id, tierId))!;
  const start = renewing ? sub.current_period_end! : now;
  const end = sub.interval === 'one_time' ? null : periodEnd(start, sub.interval);
  // A card the provider kept (Stripe, Paystack) renews by itself from now on; otherwise the mode stays.
  const kept = end ? await reusableCardPayment(trx, scope, order.id) : null;
  const mode = kept ? { renewal_mode: 'automatic' as const, renewal_payment_id: kept } : {};
  const automatic = kept !== null || sub.renewal_mode === 'automatic';
  const row = await applyMove(
    trx,
    scope,
    sub,
    {
      status: 'active',
      tier_id: tier.id,
      amount: renewing && sub.pending_tier_id ? Number(tier.price) : sub.amount,
      pending_tier_id: null,
      current_period_start: end ? start : null,
      current_period_end: end,
      grace_ends_at: null,
      checkout_url: null,
      attempts: 0,
      next_attempt_at: end ? (automatic ? end : addHours(end, -fanbase.renewal_notice_hours)) : null,
      ...mode,
    },
    renewing ? 'fanbases.subscription.renewed' : 'fanbases.subscription.activated',
    'grant',
    now,
  );
  await sendReceipt(trx, ctx, scope, row, tier.name);
}

/**
 * The first order expired or was cancelled unpaid: `expired`. A renewal order that expired ends a `past_due`
 * subscription with its grace. Everything paid for the current period refunded: `cancelled` (reason `refund`).
 */
async function released(trx: Transaction<DB>, ctx: AppContext, scope: Scope, order: OrderRow, reason: 'expired' | 'cancelled' | 'refunded') {
  const sub = await subscriptionOf(trx, scope, order);
  if (!sub) return;
  const now = nowOf(ctx);
  if (reason === 'refunded') {
    if ((sub.status === 'active' || sub.status === 'past_due') && (sub.latest_order_id === order.id || sub.attempts > 0)) await cancelNow(trx, scope, sub, 'refund', now);
    return;
  }
  if (sub.latest_order_id !== order.id) return;
  if (sub.status === 'incomplete' || (sub.status === 'past_due' && reason === 'expired')) await expireNow(trx, scope, sub, now);
}

/** A payment that arrives after its order expired is taken only while the subscription still runs. */
async function lateTakeBack(trx: Transaction<DB>, _ctx: AppContext, scope: Scope, order: OrderRow): Promise<true | string> {
  const sub = await subscriptionOf(trx, scope, order);
  return sub && (sub.status === 'active' || sub.status === 'past_due' || sub.status === 'incomplete') ? true : 'subscription_ended';
}

export const subscriptionOrderKind: OrderKindHandler = { kind: 'subscription', paid, released, lateTakeBack };
