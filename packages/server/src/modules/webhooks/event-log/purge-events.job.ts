import type { Database } from '../../../db/database';
import { defineJob, schedulePayload, type JobDefinition } from '../../../jobs/job-definition';
import { purgeOldEvents } from './event-log.repository';

/** Deletes events older than 30 days (with their deliveries and attempts), hourly. */
export const purgeEvents = defineJob({ name: 'purge-events', version: 1, payload: schedulePayload(), retry: { limit: 2 }, schedule: '43 * * * *', expireInSeconds: 600 });

export const purgeEventsJob = (db: Database): JobDefinition => ({
  ...purgeEvents,
  handler: async () => {
    await purgeOldEvents(db);
  },
});
