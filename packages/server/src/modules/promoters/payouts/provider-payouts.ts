import type { AppContext } from '../../../core/context';
import { scoped, type Scope } from '../../../core/scope';
import type { JobDefinition } from '../../../jobs/queue';
import { queryProviderPayout, sendProviderPayout } from '../../payments';
import { checkPayoutsJobType, PAYOUT_CHECK_AFTER_MS, PAYOUT_GIVE_UP_AFTER_MS, sendPayoutJobType } from './provider-payout.job';
import { settlePayout } from './payouts.service';

const nowOf = (ctx: AppContext) => (ctx.clock ? ctx.clock() : new Date());
const GAVE_UP = 'M-Pesa sent no result for this payout within 72 hours. Check the B2C account statement before paying these commissions again.';
const BATCH = 100;

/**
 * Sends a pending provider payout once: `sent_at` is taken by a conditional update before the call, so a
 * retried job or a second process never sends a second B2C request. A refusal fails the payout (its entries
 * are payable again); a timeout or an outage leaves it pending for Transaction Status to tell.
 */
export async function sendPayout(ctx: AppContext, scope: Scope, id: string): Promise<void> {
  const now = nowOf(ctx);
  const payout = await scoped(ctx.db, scope)
    .updateTable('payouts')
    .set({ sent_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('sent_at', 'is', null)
    .where('provider_config_id', 'is not', null)
    .returningAll()
    .executeTakeFirst();
  if (!payout) return;
  const sent = await sendProviderPayout(ctx, scope, { configId: payout.provider_config_id!, payoutId: payout.id, phone: payout.phone ?? '', amount: payout.amount, currency: payout.currency });
  if (sent.status === 'sent') await scoped(ctx.db, scope).updateTable('payouts').set({ provider_reference: sent.providerReference }).where('id', '=', id).where('provider_reference', 'is', null).execute();
  else if (sent.status === 'failed') await settlePayout(ctx, scope, id, sent);
  else ctx.log.warn({ payout: id, err: sent.message }, 'promoters: a B2C request got no clear answer; Transaction Status will tell');
}

/** Takes due payouts with skip-locked and moves their next check an hour ahead, in one short transaction. */
async function claimDuePayouts(ctx: AppContext, now: Date) {
  return ctx.db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('payouts').selectAll().where('status', '=', 'pending').where('next_check_at', '<=', now).orderBy('next_check_at').limit(BATCH).forUpdate().skipLocked().execute();
    if (rows.length > 0) {
      await trx.updateTable('payouts').set({ next_check_at: new Date(now.getTime() + PAYOUT_CHECK_AFTER_MS) }).where('id', 'in', rows.map((r) => r.id)).execute();
    }
    return rows;
  });
}

/**
 * A provider payout whose result never came: never sent (the send job was lost) is sent; sent, Daraja's
 * Transaction Status is asked to post the result to the payout's address again; after 72 hours it is `failed`.
 */
export async function checkDuePayouts(ctx: AppContext): Promise<number> {
  let total = 0;
  for (;;) {
    const now = nowOf(ctx);
    const due = await claimDuePayouts(ctx, now);
    for (const p of due) {
      const scope: Scope = { tenantId: p.tenant_id, livemode: p.livemode };
      try {
        if (now.getTime() - new Date(p.created_at).getTime() >= PAYOUT_GIVE_UP_AFTER_MS) await settlePayout(ctx, scope, p.id, { status: 'failed', code: 'timeout', message: GAVE_UP });
        else if (!p.sent_at) await sendPayout(ctx, scope, p.id);
        else await queryProviderPayout(ctx, scope, { configId: p.provider_config_id!, payoutId: p.id });
      } catch (err) {
        ctx.log.warn({ payout: p.id, err: err instanceof Error ? err.message : String(err) }, 'promoters: a pending payout could not be checked');
      }
    }
    total += due.length;
    if (due.length < BATCH) return total;
  }
}

export const providerPayoutJobs = (ctx: AppContext): JobDefinition<any>[] => [
  {
    ...sendPayoutJobType,
    handler: async (payloads: Array<{ tenant_id: string; livemode: boolean; payout_id: string }>) => {
      for (const p of payloads) await sendPayout(ctx, { tenantId: p.tenant_id, livemode: p.livemode }, p.payout_id);
    },
  },
  { ...checkPayoutsJobType, handler: async () => void (await checkDuePayouts(ctx)) },
];
