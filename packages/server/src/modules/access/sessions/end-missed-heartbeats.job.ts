import { defineJob, schedulePayload, type JobDefinition } from '../../../jobs/job-definition';
import type { AccessDeps } from '../access-deps';
import { endAllLapsedSessions } from './sessions.repository';

export const END_MISSED_HEARTBEATS_QUEUE = 'access-end-missed-heartbeats';

/** The missed-heartbeats sweep, every minute. */
export const endMissedHeartbeatsJobType = defineJob({
  name: END_MISSED_HEARTBEATS_QUEUE,
  version: 1,
  payload: schedulePayload(),
  retry: { limit: 2 },
  schedule: '* * * * *',
});

/** Ends every active session two heartbeats overdue (reason `missed_heartbeats`). Returns how many. */
export async function endMissedHeartbeats(deps: Pick<AccessDeps, 'db' | 'now'>): Promise<number> {
  const now = deps.now();
  let ended = 0;
  for (;;) {
    const n = await endAllLapsedSessions(deps.db, now);
    ended += n;
    if (n < 1000) return ended;
  }
}

/**
 * The missed-heartbeat sweep, every minute. Opening and heartbeats already treat a lapsed session as ended
 * the moment it lapses; the sweep records it for sessions nobody touches again.
 */
export const endMissedHeartbeatsJob = (deps: Pick<AccessDeps, 'db' | 'now'>): JobDefinition => ({
  ...endMissedHeartbeatsJobType,
  handler: async () => {
    await endMissedHeartbeats(deps);
  },
});
