import { z } from 'zod';
import type { AppContext } from '../../../core/context';
import { defineJob } from '../../../jobs/job-definition';
import type { JobDefinition } from '../../../jobs/queue';

/** The simulator's phones that fail a payout (products-api § 1.9's magic values). */
const FAILING_PHONES: Record<string, { code: string; message: string }> = {
  '+254711000002': { code: 'insufficient_funds', message: 'The simulated B2C account has too little money.' },
  '+254711000006': { code: 'timeout', message: 'The simulated payout timed out.' },
};

/** Test mode's M-Pesa payout: the simulator answers as Daraja's B2C result would, a moment after the request. */
export const simulatedPayoutJobType = defineJob({
  name: 'promoters-simulated-payout',
  version: 1,
  payload: z.object({ tenant_id: z.string(), livemode: z.boolean(), payout_id: z.string() }),
  retry: { limit: 3, delaySeconds: 1 },
});

export const simulatedPayoutJob = (ctx: AppContext, settle: (ctx: AppContext, scope: { tenantId: string; livemode: boolean }, id: string, result: { status: 'paid'; reference: string } | { status: 'failed'; code: string; message: string }) => Promise<unknown>, phoneOf: (ctx: AppContext, scope: { tenantId: string; livemode: boolean }, id: string) => Promise<string | null>): JobDefinition<z.infer<typeof simulatedPayoutJobType.payload>> => ({
  ...simulatedPayoutJobType,
  handler: async (payloads) => {
    for (const p of payloads) {
      const scope = { tenantId: p.tenant_id, livemode: p.livemode };
      const phone = await phoneOf(ctx, scope, p.payout_id);
      const failure = phone ? FAILING_PHONES[phone] : undefined;
      const receipt = `SIM${p.payout_id.slice(-7).toUpperCase()}`;
      await settle(ctx, scope, p.payout_id, failure ? { status: 'failed', ...failure } : { status: 'paid', reference: receipt });
    }
  },
});
