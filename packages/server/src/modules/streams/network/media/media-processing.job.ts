import type { AppContext } from '../../../../core/context';
import type { JobDefinition } from '../../../../jobs/queue';
import type { FinishSimulatedAssetJob } from '../../assets/asset-processing';
import { mediaProcessAssetJobType } from './media-network';
import { processMediaAsset } from './media-processing';

/** Packages the media network's assets with ffmpeg, one at a time: ffmpeg is the heavy part of a small server. */
export const mediaProcessingJob = (ctx: AppContext): JobDefinition<FinishSimulatedAssetJob> => ({
  ...mediaProcessAssetJobType,
  // The files are on the media network's disk.
  runsIn: 'media',
  work: { batchSize: 1, pollingIntervalSeconds: 1 },
  handler: async (jobs) => {
    for (const job of jobs) await processMediaAsset(ctx, job);
  },
});
