import type { AppContext } from '../../../core/context';
import { deleteInBatches, olderThanDays } from '../../../core/retention';
import type { Executor } from '../../../db/database';
import { defineJob, schedulePayload, type JobDefinition } from '../../../jobs/job-definition';

/**
 * Deletes the ids of provider notifications received more than `days` ago. They are kept only to drop a
 * provider's retries of a notification already taken, and providers stop retrying within days.
 */
export const purgeProviderNotices = (db: Executor, days: number) => deleteInBatches(db, 'provider_notifications', olderThanDays('received_at', days));

export const purgeProviderNoticesType = defineJob({
  name: 'streams-purge-provider-notices',
  version: 1,
  payload: schedulePayload(),
  retry: { limit: 2 },
  schedule: '23 * * * *',
  expireInSeconds: 600,
});

export const purgeProviderNoticesJob = (ctx: AppContext): JobDefinition => ({
  ...purgeProviderNoticesType,
  handler: async () => {
    await purgeProviderNotices(ctx.db, ctx.config.SVC_RETAIN_PROVIDER_NOTIFICATIONS_DAYS);
  },
});
