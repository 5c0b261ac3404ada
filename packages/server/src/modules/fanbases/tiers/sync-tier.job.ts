import { z } from 'zod';
import type { AppContext } from '../../../core/context';
import { defineJob } from '../../../jobs/job-definition';
import type { JobDefinition } from '../../../jobs/queue';
import { syncMembershipsOfTier } from '../memberships/member-entitlements';

/**
 * A tier's grants, limits, price or status changed: its holders' entitlements (and memberships' tiers) follow,
 * one membership per transaction, so a retry redoes only what is left.
 */
export const syncTier = defineJob({
  name: 'fanbases-sync-tier',
  version: 1,
  payload: z.object({ tenant_id: z.string(), livemode: z.boolean(), fanbase: z.string(), tier: z.string() }),
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  expireInSeconds: 600,
});

export const syncTierJob = (ctx: AppContext): JobDefinition<z.infer<typeof syncTier.payload>> => ({
  ...syncTier,
  handler: async (payloads) => {
    for (const p of payloads) await syncMembershipsOfTier(ctx, { tenantId: p.tenant_id, livemode: p.livemode }, p.fanbase, p.tier);
  },
});
