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

/** Rows of one batch applied at once, per worker loop (two loops: at most eight settling transactions). */
const APPLY_CONCURRENCY = 4;

export const applyNotificationJobs = (ctx: AppContext): JobDefinition<any>[] => [
  {
    ...applyNotificationJob,
    work: { workers: 2, batchSize: 10 },
    handler: async (payloads: Array<{ id: string }>) => {
      // Most of an application is waiting for the provider's query (hundreds of ms at Daraja), so a batch's rows
      // are applied a few at a time; each holds a database connection only for its own settling transaction.
      // One row's failure must not redo the rows applied beside it: each is tried, then the first error is thrown.
      let failure: unknown;
      let next = 0;
      const lane = async () => {
        while (next < payloads.length) {
          const { id } = payloads[next++]!;
          try {
            await applyNotification(ctx, id);
          } catch (err) {
            failure ??= err;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(APPLY_CONCURRENCY, payloads.length) }, lane));
      if (failure) throw failure;
    },
  },
];
