import type { AppContext } from '../../../core/context';
import { defineJob, schedulePayload, type JobDefinition } from '../../../jobs/job-definition';
import { nowOf } from '../orders/order-transitions';
import { recordEventsStarting } from './activity-items';

/** Every five minutes: published events that start within the hour appear in the feed as `event_starting`. */
export const announceStartingEvents = defineJob({
  name: 'ticketing-announce-starting-events',
  version: 1,
  payload: schedulePayload(),
  retry: { limit: 2 },
  schedule: '*/5 * * * *',
});

export const activityJobs = (ctx: AppContext): JobDefinition<any>[] => [
  { ...announceStartingEvents, handler: async () => void (await recordEventsStarting(ctx.db, nowOf(ctx))) },
];
