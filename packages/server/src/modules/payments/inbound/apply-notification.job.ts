import { z } from 'zod';
import type { AppContext } from '../../../core/context';
import { defineJob, type JobDefinition } from '../../../jobs/job-definition';
import { applyNotifications } from './apply-notifications';

/**
 * Applies one inbox row. A provider outage, a refused lock or a payment not yet recorded throws, and pg-boss
 * tries again with backoff (2 s doubling, about eight minutes in all); reconciliation still covers the payment
 * after that. The handler is safe to run twice: an applied row is skipped, and settling locks the payment.
 */
export const applyNotificationJob = defineJob({
  name: 'payments-apply-notification',
  version: 1,
  payload: z.object({ id: z.string() }),
  retry: { limit: 8, delaySeconds: 2, backoff: true },
  expireInSeconds: 120,
});

export const applyNotificationJobs = (ctx: AppContext): JobDefinition<any>[] => [
  {
    ...applyNotificationJob,
    // Two loops, each applying a batch with one settling transaction per tenant and mode (and a few rows settled
    // alone): the callbacks' answers keep the rest of the pool. Larger batches settle a rush in fewer transactions.
    work: { workers: 2, batchSize: 50 },
    handler: async (payloads: Array<{ id: string }>) => {
      // One row's failure must not redo the rows applied beside it: each is tried, then the first error is thrown.
      const failure = await applyNotifications(ctx, payloads.map((p) => p.id));
      if (failure) throw failure;
    },
  },
];
