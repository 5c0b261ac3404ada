import type { Transaction } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import type { SubscriptionRow } from '../../../db/fanbases.schema';
import type { DB } from '../../../db/schema';
import { defineJob } from '../../../jobs/job-definition';
import type { JobDefinition } from '../../../jobs/queue';
import { jobOf, sendInTransaction } from '../../../jobs/send-in-transaction';
import { findCustomer, getOrganizationRow } from '../../identity';
import { checkoutMethods, declinedByPayer } from '../../payments';
import { promptOrderPayment } from '../../ticketing';
import { promptMoment } from './periods';
import * as repo from './subscriptions.repository';

/**
 * A renewal's M-Pesa prompt (products-api § 2.4, mode `prompt`): an STK push for the period's renewal order to
 * the subscription's phone. Sent after the renewal step commits, so no provider call holds the row's lock; its
 * `key` (the order and the step's attempt) makes a retried or repeated job the same payment attempt.
 */
export const renewalPrompt = defineJob({
  name: 'fanbases-renewal-prompt',
  version: 1,
  payload: z.object({ tenant_id: z.string(), livemode: z.boolean(), subscription: z.string(), order: z.string(), key: z.string() }),
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 300,
});

type Prompt = z.infer<typeof renewalPrompt.payload>;

/** Whether M-Pesa serves the organization's mobile money for this amount (card providers and the simulator do not prompt). */
async function mpesaServes(ctx: AppContext, scope: Scope, organizationId: string, amount: number, currency: string): Promise<boolean> {
  try {
    return (await checkoutMethods(ctx, scope, organizationId, amount, currency)).some((m) => m.method === 'mobile_money' && m.provider === 'mpesa');
  } catch (err) {
    if (err instanceof ApiError) return false;
    throw err;
  }
}

/**
 * In the renewal step's transaction: the prompt for the subscription's open renewal order, when M-Pesa serves it,
 * at `now` if that is between 08:00 and 20:00 in the organization's time zone, else at the next 08:00 there.
 */
export async function queueRenewalPrompt(trx: Transaction<DB>, ctx: AppContext, scope: Scope, sub: SubscriptionRow, amount: number, now: Date, key: string) {
  if (sub.renewal_mode !== 'prompt' || !sub.latest_order_id) return;
  if (!(await mpesaServes(ctx, scope, sub.organization_id, amount, sub.currency))) return;
  const org = await getOrganizationRow(trx, scope, sub.organization_id);
  // The step may run at a subscription's own moment (the test clock): only the wait is carried over.
  const waitSeconds = Math.ceil((promptMoment(now, org.timezone).getTime() - now.getTime()) / 1000);
  const data: Prompt = { tenant_id: scope.tenantId, livemode: scope.livemode, subscription: sub.id, order: sub.latest_order_id, key: `renewal:${sub.latest_order_id}:${key}` };
  await sendInTransaction(trx, [jobOf(renewalPrompt, data, waitSeconds > 0 ? waitSeconds : undefined)]);
}

/** Sends one prompt, unless the subscription moved on, its order is no longer open, or the payer declined one. */
export async function sendRenewalPrompt(ctx: AppContext, p: Prompt): Promise<void> {
  const scope: Scope = { tenantId: p.tenant_id, livemode: p.livemode };
  const sub = await repo.findSubscription(ctx.db, scope, p.subscription);
  if (!sub || (sub.status !== 'active' && sub.status !== 'past_due') || sub.latest_order_id !== p.order) return;
  // A `cancelled_by_user` answer stops the period's prompts; its messages continue.
  if (await declinedByPayer(ctx.db, scope, p.order)) return;
  const phone = sub.phone ?? (await findCustomer(ctx.db, scope, sub.customer))?.phone ?? null;
  if (!phone) return;
  await promptOrderPayment(ctx, scope, p.order, phone, p.key);
}

export const renewalPromptJob = (ctx: AppContext): JobDefinition<Prompt> => ({
  ...renewalPrompt,
  handler: async (payloads) => {
    for (const p of payloads) await sendRenewalPrompt(ctx, p);
  },
});
