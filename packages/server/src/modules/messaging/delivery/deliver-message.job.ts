import { z } from 'zod';
import { defineJob } from '../../../jobs/job-definition';

/**
 * One delivery attempt of one message. The message id is the job's idempotency key: whichever job runs, an
 * attempt starts only by moving the message from `queued` to `sending` in one conditional update, and the
 * providers that take an idempotency key get the message id.
 */
export const deliverMessageJob = defineJob({
  name: 'messaging.deliver-message',
  version: 1,
  payload: z.object({ messageId: z.string() }),
  // A fault of the worker itself (the database away): pg-boss tries again; provider failures follow the
  // outbox's own schedule instead.
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  // A provider call has a 15 s (HTTP) or 30 s (SMTP) timeout; a job active longer lost its process.
  expireInSeconds: 90,
});
