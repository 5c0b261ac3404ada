import type { AppContext } from '../../../core/context';
import { defineJob, schedulePayload } from '../../../jobs/job-definition';
import type { JobDefinition } from '../../../jobs/queue';
import { nowOf } from '../clock';
import { renewDue } from './renew-subscriptions';

/** Every minute: renewal notices, period ends, reminders and grace ends that are due (products-api § 2.4). */
export const renewSubscriptions = defineJob({
  name: 'fanbases-renew',
  version: 1,
  payload: schedulePayload(),
  retry: { limit: 1 },
  expireInSeconds: 300,
  schedule: '* * * * *',
});

export const renewSubscriptionsJob = (ctx: AppContext): JobDefinition => ({
  ...renewSubscriptions,
  handler: async () => {
    // Batches until the due list is worked off, so a busy minute does not wait for the next.
    for (let i = 0; i < 50 && (await renewDue(ctx, nowOf(ctx))) === 200; i++);
  },
});
