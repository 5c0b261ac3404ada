import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import { defineJob, schedulePayload, type JobDefinition } from '../../../jobs/job-definition';
import { settlePayment } from '../attempts/settle-payment';
import { markConfigFailing } from '../provider-configs/provider-configs.service';
import { ProviderError, type PaymentProvider } from '../provider';
import { providerForRow } from '../providers/provider-of-row';
import { attemptOf } from '../refunds/refund-payment';
import { settleRefund } from '../refunds/settle-refund';
import { claimDue } from './claim-due';
import { callbackAddress } from '../inbound/callback-address';
import { scheduleRefundCheck, type RefundRow } from '../refunds/refunds.service';
import { nextRefundCheckAt, REVERSAL_GIVE_UP_AFTER_MS } from '../refunds/refund-checks';

/** Where the provider reports the refund's result: M-Pesa's reversal posts it to a tokened address of its own. */
const resultAddress = (ctx: AppContext, scope: Scope, refund: RefundRow) =>
  refund.provider === 'mpesa' && refund.provider_config_id
    ? callbackAddress(ctx, ctx.db, scope, { configId: refund.provider_config_id, providerType: 'mpesa', operation: { refund: refund.id } })
    : Promise.resolve('');

/**
 * Every minute, in any number of processes: asks the provider about each pending payment whose check is due
 * (30 s, 1, 2, 5, 10, 30 minutes after it started, then hourly; after 24 h it is `failed` `timeout`), and sends
 * or asks about each pending refund at a provider. Rows are claimed with skip-locked, so processes share them.
 */
export const reconcilePayments = defineJob({
  name: 'payments-reconcile',
  version: 1,
  payload: schedulePayload(),
  retry: { limit: 2 },
  schedule: '* * * * *',
  expireInSeconds: 300,
});

const BATCH = 100;
const GAVE_UP = 'M-Pesa sent no result for this reversal within 72 hours. Check the M-Pesa statement: record a manual refund only if the money did not go back.';
const nowOf = (ctx: AppContext) => (ctx.clock ? ctx.clock() : new Date());

/**
 * An outage or a refusal leaves the row for its next check; one provider's fault never stops the others. A
 * refusal of the stored credentials marks the configuration `failing`.
 */
async function guarded(ctx: AppContext, what: string, id: string, configId: string | null, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    const kind = err instanceof ProviderError ? err.kind : 'error';
    ctx.log.warn({ id, kind, err: err instanceof Error ? err.message : String(err) }, `payments reconciliation could not check a ${what}`);
    if (kind === 'credentials' && configId) await markConfigFailing(ctx, configId, (err as Error).message);
  }
}

export async function reconcileDuePayments(ctx: AppContext): Promise<{ payments: number; refunds: number }> {
  const counts = { payments: 0, refunds: 0 };
  for (;;) {
    const due = await claimDue(ctx, nowOf(ctx), BATCH);
    const providers = new Map<string, PaymentProvider>();
    for (const p of due.payments) {
      const scope: Scope = { tenantId: p.tenant_id, livemode: p.livemode };
      await guarded(ctx, 'payment', p.id, p.provider_config_id, async () => {
        const provider = await providerForRow(ctx, providers, p.provider, p.provider_config_id);
        await settlePayment(ctx, scope, p.id, await provider.queryPayment(attemptOf(p)));
      });
    }
    for (const { refund, payment } of due.refunds) {
      const scope: Scope = { tenantId: refund.tenant_id, livemode: refund.livemode };
      await guarded(ctx, 'refund', refund.id, refund.provider_config_id, async () => {
        const provider = await providerForRow(ctx, providers, refund.provider, refund.provider_config_id);
        if (refund.provider_reference === null) {
          const callbackUrl = await resultAddress(ctx, scope, refund);
          const sent = await provider.refund({ refundId: refund.id, payment: attemptOf(payment), amount: refund.amount, currency: refund.currency, callbackUrl });
          await settleRefund(ctx, scope, refund.id, sent.state, sent.providerReference);
          if (sent.state.status === 'pending') await scheduleRefundCheck(ctx.db, refund.id, nextRefundCheckAt(refund.provider, new Date(refund.created_at), nowOf(ctx)));
          return;
        }
        const now = nowOf(ctx);
        if (refund.provider === 'mpesa' && now.getTime() - new Date(refund.created_at).getTime() >= REVERSAL_GIVE_UP_AFTER_MS) {
          await settleRefund(ctx, scope, refund.id, { status: 'failed', failureCode: 'provider_error', failureMessage: GAVE_UP });
          return;
        }
        const callbackUrl = await resultAddress(ctx, scope, refund);
        const state = await provider.queryRefund({ refundId: refund.id, providerReference: refund.provider_reference, payment: attemptOf(payment), callbackUrl });
        if (state && state.status !== 'pending') await settleRefund(ctx, scope, refund.id, state);
        else await scheduleRefundCheck(ctx.db, refund.id, nextRefundCheckAt(refund.provider, new Date(refund.created_at), now));
      });
    }
    counts.payments += due.payments.length;
    counts.refunds += due.refunds.length;
    if (due.payments.length < BATCH && due.refunds.length < BATCH) return counts;
  }
}

export const reconcileJobs = (ctx: AppContext): JobDefinition<any>[] => [
  {
    ...reconcilePayments,
    handler: async () => {
      await reconcileDuePayments(ctx);
    },
  },
];
