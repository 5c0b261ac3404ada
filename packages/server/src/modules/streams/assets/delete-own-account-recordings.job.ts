import type { JobDefinition } from '../../../jobs/queue';
import { scoped } from '../../../core/scope';
import { deleteOwnAccountRecordingsJobType, type DeleteOwnAccountRecordingsJob } from '../network/external/account-networks';
import { callNetwork } from '../network/video-networks';
import { deleteAsset } from './assets.service';
import type { MediaDeps } from './media-deps';

/**
 * A deleted live stream's recordings on a tenant's own account, one reconnect window plus a minute after the
 * delete: each recording asset here is deleted as `DELETE /v1/streams/assets/{id}` would (its video on the
 * account first, then `streams.asset.deleted`); a video with no asset here is deleted on the account only.
 * Safe to run again: what is already gone is skipped.
 */
export async function deleteOwnAccountRecordings(deps: MediaDeps, job: DeleteOwnAccountRecordingsJob): Promise<void> {
  const scope = { tenantId: job.tenant_id, livemode: job.livemode };
  for (const ref of job.video_refs) {
    const asset = await scoped(deps.db, scope)
      .selectFrom('assets')
      .select('id')
      .where('provider', '=', job.provider)
      .where('provider_asset_id', '=', ref)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (asset) await deleteAsset(deps, scope, asset.id);
    else await callNetwork(() => deps.networks.byProvider(job.provider).deleteAsset(ref));
  }
}

export const deleteOwnAccountRecordingsJob = (deps: MediaDeps): JobDefinition<DeleteOwnAccountRecordingsJob> => ({
  ...deleteOwnAccountRecordingsJobType,
  handler: async (jobs) => {
    for (const job of jobs) await deleteOwnAccountRecordings(deps, job);
  },
});
