import type { JobDefinition } from '../../../jobs/queue';
import { finishSimulatedAsset, finishSimulatedAssetJobType, type FinishSimulatedAssetJob } from './asset-processing';
import type { MediaDeps } from './media-deps';

/** Test mode: a created asset becomes `ready` by itself `SVC_SIMULATED_ASSET_DELAY_MS` after it was made. */
export const finishSimulatedAssetJob = (deps: Pick<MediaDeps, 'db'>): JobDefinition<FinishSimulatedAssetJob> => ({
  ...finishSimulatedAssetJobType,
  handler: async (jobs) => {
    for (const job of jobs) await finishSimulatedAsset(deps, job);
  },
});
