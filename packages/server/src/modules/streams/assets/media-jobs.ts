import type { AppContext } from '../../../core/context';
import type { JobDefinition } from '../../../jobs/queue';
import { cutMomentClipJob } from '../moments/cut-moment-clip.job';
import { deleteOwnAccountRecordingsJob } from './delete-own-account-recordings.job';
import { finishSimulatedAssetJob } from './finish-simulated-asset.job';
import { mediaDeps } from './media-deps';

/** The background jobs of assets and moments: simulated processing, and the tries of moment clips. */
export function streamsMediaJobs(ctx: AppContext): JobDefinition<any>[] {
  const deps = mediaDeps(ctx);
  return [finishSimulatedAssetJob(deps), cutMomentClipJob(deps), deleteOwnAccountRecordingsJob(deps)];
}
