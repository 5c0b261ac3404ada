import type { AppContext } from '../../../../core/context';
import type { JobDefinition } from '../../../../jobs/queue';
import { QUEUE_NAMES } from '../../../../jobs/queue-names';
import type { FinishSimulatedAssetJob } from '../../assets/asset-processing';
import { processMediaAsset } from './media-processing';

/** Packages the media network's assets with ffmpeg, one at a time: ffmpeg is the heavy part of a small server. */
export const mediaProcessingJob = (ctx: AppContext): JobDefinition<FinishSimulatedAssetJob> => ({
  name: QUEUE_NAMES.mediaProcessAsset,
  work: { batchSize: 1, pollingIntervalSeconds: 1 },
  handler: async (jobs) => {
    for (const job of jobs) await processMediaAsset(ctx, job);
  },
});
