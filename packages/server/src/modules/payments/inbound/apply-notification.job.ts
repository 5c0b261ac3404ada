import { z } from 'zod';
import type { AppContext } from '../../../core/context';
import { defineJob, type JobDefinition } from '../../../jobs/job-definition';
import { applyNotification } from './apply-notification';

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
    work: { workers: 2, batchSize: 10 },
    handler: async (payloads: Array<{ id: string }>) => {
      // One row's failure must not redo the rows applied before it: each is tried, then the first error is thrown.
      let failure: unknown;
      for (const { id } of payloads) {
        try {
          await applyNotification(ctx, id);
        } catch (err) {
          failure ??= err;
        }
      }
      if (failure) throw failure;
    },
  },
];
