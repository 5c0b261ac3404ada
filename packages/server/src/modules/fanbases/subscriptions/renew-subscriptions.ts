import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import type { FanbaseRow, SubscriptionRow } from '../../../db/fanbases.schema';
import type { DB } from '../../../db/schema';
import { findFanbaseRow } from '../fanbases/fanbases.service';
import { findTier } from '../tiers/tier-rows.service';
import { addDays, addHours, nextReminder } from './periods';
import { sendRenewalReminder } from './subscription-messages';
import { applyMove, cancelNow, expireNow, moveToPastDue } from './subscription-moves';
import { queueRenewalCharge } from './renewal-charge.job';
import { queueRenewalPrompt } from './renewal-prompt.job';
import { prepareOrder } from '../../ticketing';
import { createSubscriptionOrder } from './subscription-orders';
import * as repo from './subscriptions.repository';

const at = (d: Date | null) => (d ? d.getTime() : Infinity);

/** How long an automatic renewal waits for its charge's answer before the period end counts as unpaid. */
const CHARGE_ANSWER_HOURS = 1;

/** In the step's transaction: the renewal's collection by the subscription's mode (a prompt, or a charge of the kept card). */
async function collect(trx: Transaction<DB>, ctx: AppContext, scope: Scope, sub: SubscriptionRow, amount: number, now: Date) {
  await queueRenewalPrompt(trx, ctx, scope, sub, amount, now, String(sub.attempts));
  await queueRenewalCharge(trx, scope, sub, String(sub.attempts));
}

/**
 * The renewal order of the coming period (one per period: `attempts` > 0 says it exists), expiring with the
 * grace; the subscription shows its checkout page. In `prompt` mode the fan is told where to pay; in
 * `automatic` mode the kept card is charged, and the fan hears only if that fails.
 */
export async function openRenewal(trx: Transaction<DB>, ctx: AppContext, scope: Scope, sub: SubscriptionRow, fanbase: FanbaseRow, now: Date): Promise<SubscriptionRow> {
  const tier = (await findTier(trx, scope, sub.fanbase_id, sub.pending_tier_id ?? sub.tier_id))!;
  const end = sub.current_period_end!;
  const amount = sub.pending_tier_id ? Number(tier.price) : Number(sub.amount);
  const graceEnd = addDays(end, fanbase.grace_period_days);
  // Inside the renewal's transaction: the job's few workers never hold every pool connection at once.
  const prepared = await prepareOrder(ctx, scope, sub.organization_id, amount > 0);
  const created = await createSubscriptionOrder(trx, ctx, scope, sub, tier, {
    start: end,
    end: null,
    amount,
    expiresAt: graceEnd.getTime() > now.getTime() ? graceEnd : addHours(now, 1),
  }, prepared);
  const automatic = sub.renewal_mode === 'automatic' && sub.renewal_payment_id !== null;
  const due = end.getTime() > now.getTime() ? end : now;
  const row = await applyMove(
    trx,
    scope,
    sub,
    { latest_order_id: created.order.id, checkout_url: created.checkoutUrl, attempts: 1, next_attempt_at: automatic ? addHours(due, CHARGE_ANSWER_HOURS) : due },
    null,
    'keep',
    now,
  );
  if (!automatic) await sendRenewalReminder(trx, ctx, scope, row, tier.name);
  await collect(trx, ctx, scope, row, amount, now);
  return row;
}

/**
 * One step of a subscription's renewal at `now`, under its row lock (so two runs for one period make one
 * order): the renewal notice opens the period's order; the period end makes it `past_due` (or `cancelled` when
 * set to cancel), the reminders nudge, the grace end makes it `expired`. Answers whether the state moved, so the
 * caller steps again until nothing is due at `now`.
 */
async function step(trx: Transaction<DB>, ctx: AppContext, scope: Scope, id: string, now: Date): Promise<boolean> {
  const sub = await repo.findSubscription(trx, scope, id, { forUpdate: true });
  if (!sub || (sub.status !== 'active' && sub.status !== 'past_due') || sub.interval === 'one_time' || !sub.current_period_end) return false;
  const fanbase = (await findFanbaseRow(trx, scope, sub.fanbase_id))!;
  const end = sub.current_period_end;
  const t = now.getTime();
  if (sub.status === 'active' && sub.cancel_at_period_end) {
    if (t >= end.getTime()) {
      await cancelNow(trx, scope, sub, sub.cancellation_reason ?? 'customer', now);
      return true;
    }
    if (at(sub.next_attempt_at) !== end.getTime()) await repo.updateSubscription(trx, scope, sub.id, { next_attempt_at: end });
    return false;
  }
  if (sub.status === 'active') {
    // A kept card is charged at the period end; a prompt goes out `renewal_notice_hours` before it.
    const automatic = sub.renewal_mode === 'automatic';
    const opensAt = automatic ? end : addHours(end, -fanbase.renewal_notice_hours);
    if (sub.attempts === 0 && t >= opensAt.getTime()) {
      await openRenewal(trx, ctx, scope, sub, fanbase, now);
      return true;
    }
    if (sub.attempts === 0 && at(sub.next_attempt_at) !== opensAt.getTime()) await repo.updateSubscription(trx, scope, sub.id, { next_attempt_at: opensAt });
    // An automatic charge answers by itself (renewed, or `past_due` when declined); its wait is only a fallback.
    if (sub.attempts > 0 && t >= (automatic ? at(sub.next_attempt_at) : end.getTime())) {
      const row = await moveToPastDue(trx, scope, sub, fanbase, end, now, now);
      const tier = await findTier(trx, scope, sub.fanbase_id, sub.tier_id);
      await sendRenewalReminder(trx, ctx, scope, row, tier?.name ?? '');
      await collect(trx, ctx, scope, row, Number(row.amount), now);
      return true;
    }
    return false;
  }
  const graceEnd = sub.grace_ends_at ?? addDays(end, fanbase.grace_period_days);
  if (t >= graceEnd.getTime()) {
    await expireNow(trx, scope, sub, now);
    return true;
  }
  if (t >= at(sub.next_attempt_at)) {
    const row = await repo.updateSubscription(trx, scope, sub.id, { attempts: sub.attempts + 1, next_attempt_at: nextReminder(end, fanbase.grace_period_days, now) ?? graceEnd, updated_at: now });
    const tier = await findTier(trx, scope, sub.fanbase_id, sub.tier_id);
    await sendRenewalReminder(trx, ctx, scope, row, tier?.name ?? '');
    await collect(trx, ctx, scope, row, Number(row.amount), now);
  }
  return false;
}

/** Runs the renewal of one subscription at `now` until nothing more is due then (each step in its own transaction). */
export async function renewAt(ctx: AppContext, scope: Scope, id: string, now: Date): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const moved = await ctx.db.transaction().execute((trx) => step(trx, ctx, scope, id, now));
    if (!moved) return;
  }
}

/** Every subscription whose renewal is due at `now`, a batch at a time; one that fails waits for the next run. */
export async function renewDue(ctx: AppContext, now: Date, batch = 200): Promise<number> {
  const due = await repo.findDue(ctx.db, now, batch);
  for (const d of due) {
    try {
      await renewAt(ctx, { tenantId: d.tenant_id, livemode: d.livemode }, d.id, now);
    } catch (err) {
      ctx.log.warn({ err: (err as Error).message, subscription: d.id }, 'subscription renewal failed');
    }
  }
  return due.length;
}
