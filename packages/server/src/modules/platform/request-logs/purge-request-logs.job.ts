import type { AppContext } from '../../../core/context';
import { defineJob, schedulePayload, type JobDefinition } from '../../../jobs/job-definition';
import { purgeRequestLogs } from './request-logs.repository';

/** Deletes request log rows past the operator's retention (`SVC_REQUEST_LOG_RETENTION_DAYS`), hourly. */
export const purgeRequestLogsType = defineJob({
  name: 'purge-request-logs',
  version: 1,
  payload: schedulePayload(),
  retry: { limit: 2 },
  schedule: '17 * * * *',
  expireInSeconds: 600,
});

export const purgeRequestLogsJob = ({ db, config }: AppContext): JobDefinition => ({
  ...purgeRequestLogsType,
  handler: async () => {
    // With recording off (0 days) nothing is written, and whatever an earlier setting kept goes too.
    await purgeRequestLogs(db, config.SVC_REQUEST_LOG_RETENTION_DAYS);
  },
});
