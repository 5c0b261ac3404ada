import type { JobDefinition } from '../../../jobs/queue';
import type { AccessDeps } from '../access-deps';
import { endAllLapsedSessions } from './sessions.repository';

export const END_MISSED_HEARTBEATS_QUEUE = 'access-end-missed-heartbeats';

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
  name: END_MISSED_HEARTBEATS_QUEUE,
  schedule: '* * * * *',
  handler: async () => {
    await endMissedHeartbeats(deps);
  },
});
