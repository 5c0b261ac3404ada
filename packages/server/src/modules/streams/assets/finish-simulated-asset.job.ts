import type { JobDefinition } from '../../../jobs/queue';
import { QUEUE_NAMES } from '../../../jobs/queue-names';
import { finishSimulatedAsset, type FinishSimulatedAssetJob } from './asset-processing';
import type { MediaDeps } from './media-deps';

/** Test mode: a created asset becomes `ready` by itself `SVC_SIMULATED_ASSET_DELAY_MS` after it was made. */
export const finishSimulatedAssetJob = (deps: Pick<MediaDeps, 'db'>): JobDefinition<FinishSimulatedAssetJob> => ({
  name: QUEUE_NAMES.finishSimulatedAsset,
  expireInSeconds: 30,
  handler: async (jobs) => {
    for (const job of jobs) await finishSimulatedAsset(deps, job);
  },
});
