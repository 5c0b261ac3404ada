import { sql } from 'kysely';
import type { AppContext } from '../../../core/context';
import { deleteInBatches, olderThanDays } from '../../../core/retention';
import type { Executor } from '../../../db/database';
import { defineJob, schedulePayload, type JobDefinition } from '../../../jobs/job-definition';

/**
 * Deletes raw page views older than `days`, and the per-day visitor marks of days before yesterday (in any
 * timezone). The raw views only tell a repeat view within the counting window; the marks only tell a visitor's
 * first view of a day. The analytics read the daily rollups, which are kept.
 */
export async function purgePageViews(db: Executor, days: number): Promise<number> {
  const views = await deleteInBatches(db, 'event_page_views', olderThanDays('viewed_at', days));
  const marks = await deleteInBatches(db, 'event_day_visitors', sql<boolean>`day < current_date - 2`);
  return views + marks;
}

export const purgePageViewsType = defineJob({
  name: 'ticketing-purge-page-views',
  version: 1,
  payload: schedulePayload(),
  retry: { limit: 2 },
  schedule: '29 * * * *',
  expireInSeconds: 900,
});

export const purgePageViewsJob = (ctx: AppContext): JobDefinition => ({
  ...purgePageViewsType,
  handler: async () => {
    await purgePageViews(ctx.db, ctx.config.SVC_RETAIN_PAGE_VIEWS_DAYS);
  },
});
