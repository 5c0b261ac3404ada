import type { Transaction } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import type { SubscriptionRow } from '../../../db/fanbases.schema';
import type { DB } from '../../../db/schema';
import { defineJob } from '../../../jobs/job-definition';
import type { JobDefinition } from '../../../jobs/queue';
import { jobOf, sendInTransaction } from '../../../jobs/send-in-transaction';
import { chargeOrderSavedCard } from '../../ticketing';
import { nowOf } from '../clock';
import { findFanbaseRow } from '../fanbases/fanbases.service';
import { findTier } from '../tiers/tier-rows.service';
import { sendRenewalFailed } from './subscription-messages';
import { moveToPastDue } from './subscription-moves';
import * as repo from './subscriptions.repository';

/**
 * A renewal's off-session charge of the card kept at activation (products-api § 2.4, mode `automatic`): Stripe's
 * confirmed PaymentIntent, Paystack's `charge_authorization` then `verify`. Sent after the renewal step commits,
 * so no provider call holds the row's lock; its `key` (the order and the step's attempt) is the payment's
 * idempotency key, so a retried or repeated job is the same attempt and the provider charges once.
 */
export const renewalCharge = defineJob({
  name: 'fanbases-renewal-charge',
  version: 1,
  payload: z.object({ tenant_id: z.string(), livemode: z.boolean(), subscription: z.string(), order: z.string(), key: z.string() }),
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 300,
});

type Charge = z.infer<typeof renewalCharge.payload>;

/** In the renewal step's transaction: the charge of the subscription's open renewal order, at once. */
export async function queueRenewalCharge(trx: Transaction<DB>, scope: Scope, sub: SubscriptionRow, key: string) {
  if (sub.renewal_mode !== 'automatic' || !sub.renewal_payment_id || !sub.latest_order_id) return;
  const data: Charge = { tenant_id: scope.tenantId, livemode: scope.livemode, subscription: sub.id, order: sub.latest_order_id, key: `renewal:${sub.latest_order_id}:${key}` };
  await sendInTransaction(trx, [jobOf(renewalCharge, data)]);
}

/**
 * Charges once, unless the subscription moved on. A confirmed charge pays the order, and the order's payment
 * renews the subscription in that transaction; a declined one (or a card that can no longer be charged) makes an
 * `active` subscription `past_due` as an unpaid period end does, and tells the fan to pay another way.
 */
export async function sendRenewalCharge(ctx: AppContext, c: Charge): Promise<void> {
  const scope: Scope = { tenantId: c.tenant_id, livemode: c.livemode };
  const sub = await repo.findSubscription(ctx.db, scope, c.subscription);
  if (!sub || (sub.status !== 'active' && sub.status !== 'past_due') || sub.latest_order_id !== c.order || !sub.renewal_payment_id) return;
  const payment = await chargeOrderSavedCard(ctx, scope, c.order, sub.renewal_payment_id, c.key);
  if (payment && payment.status !== 'failed') return;
  await ctx.db.transaction().execute((trx) => renewalFailed(trx, ctx, scope, c));
}

async function renewalFailed(trx: Transaction<DB>, ctx: AppContext, scope: Scope, c: Charge) {
  const sub = await repo.findSubscription(trx, scope, c.subscription, { forUpdate: true });
  // Paid meanwhile (`attempts` back to 0), moved on, or already `past_due` (whose reminders carry the page).
  if (!sub || sub.status !== 'active' || sub.latest_order_id !== c.order || sub.attempts === 0 || !sub.current_period_end) return;
  const fanbase = (await findFanbaseRow(trx, scope, sub.fanbase_id))!;
  const end = sub.current_period_end;
  const now = nowOf(ctx);
  const after = now.getTime() > end.getTime() ? now : end;
  const row = await moveToPastDue(trx, scope, sub, fanbase, end, after, now);
  const tier = await findTier(trx, scope, sub.fanbase_id, sub.tier_id);
  await sendRenewalFailed(trx, ctx, scope, row, tier?.name ?? '');
}

export const renewalChargeJob = (ctx: AppContext): JobDefinition<Charge> => ({
  ...renewalCharge,
  handler: async (payloads) => {
    for (const c of payloads) await sendRenewalCharge(ctx, c);
  },
});
