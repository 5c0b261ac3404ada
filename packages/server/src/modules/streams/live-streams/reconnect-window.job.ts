import type { JobDefinition } from '../../../jobs/queue';
import type { StreamsDeps } from '../streams-deps';
import { expireReconnectWindow, liveStreamReconnectWindow, type ReconnectWindowJob } from './live-stream-transitions';
import { findExpiredReconnectWindows } from './live-streams.repository';

/** Every disconnected stream whose window has passed, whatever job was meant for it. Returns how many ended. */
export async function sweepReconnectWindows(deps: StreamsDeps): Promise<number> {
  let ended = 0;
  for (const s of await findExpiredReconnectWindows(deps.db, deps.now())) {
    if (await expireReconnectWindow(deps, { tenantId: s.tenant_id, livemode: s.livemode, liveStreamId: s.id })) ended++;
  }
  return ended;
}

/**
 * Ends broadcasts when their reconnect window passes. Each `disconnected` enqueues one job for its deadline;
 * the same queue runs a sweep every minute (cron jobs carry no stream), which catches anything a lost job missed.
 */
export const reconnectWindowJob = (deps: StreamsDeps): JobDefinition<Partial<ReconnectWindowJob>> => ({
  ...liveStreamReconnectWindow,
  work: { pollingIntervalSeconds: 1, batchSize: 20 },
  handler: async (jobs) => {
    for (const job of jobs) {
      if (job.liveStreamId && job.tenantId && job.livemode !== undefined) {
        await expireReconnectWindow(deps, job as ReconnectWindowJob);
      } else {
        await sweepReconnectWindows(deps);
      }
    }
  },
});
