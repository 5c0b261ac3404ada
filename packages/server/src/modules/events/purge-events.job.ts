import type { Database } from '../../db/database';
import type { JobDefinition } from '../../jobs/queue';
import { purgeOldEvents } from './events.repository';

/** Deletes events older than 30 days (with their deliveries and attempts), hourly. */
export const purgeEventsJob = (db: Database): JobDefinition => ({
  name: 'purge-events',
  schedule: '43 * * * *',
  expireInSeconds: 600,
  handler: async () => {
    await purgeOldEvents(db);
  },
});
