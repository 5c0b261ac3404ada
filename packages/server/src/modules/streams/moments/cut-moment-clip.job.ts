import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema';
import { ApiError } from '../../../core/errors';
import { scoped, type Scope } from '../../../core/scope';
import type { JobDefinition } from '../../../jobs/queue';
import { recordingsOverlapping } from '../assets/recordings.service';
import type { AssetRow } from '../assets/assets.serializer';
import type { MediaDeps } from '../assets/media-deps';
import { cutClip } from '../clips/clips.service';
import { callNetwork } from '../network/video-networks';
import { clipRetryDelay, clipWindow, cutWithin, overlapMs } from './clip-schedule';
import { cutMomentClipJobType, markClipFailed, markClipReady, scheduleClipTry, type CutMomentClipJob } from './moment-clips';
import * as repo from './moments.repository';

/** A try that did not produce a clip, for a reason worth trying again (the recording is not there yet, the network failed). */
class ClipNotYet extends Error {}

/** Picks the recording that covers most of the window, and cuts the window from it on its network. */
async function tryCut(trx: Transaction<DB>, deps: MediaDeps, scope: Scope, moment: repo.MomentRow) {
  const window = clipWindow(moment);
  const now = deps.now();
  const lastFrame = (r: AssetRow) => r.recording_ended_at ?? now;
  const recordings = await recordingsOverlapping(trx, scope, moment.live_stream_id, window.from, window.to);
  const recording = recordings
    .map((r) => ({ r, covered: overlapMs(window, r.recording_started_at!, lastFrame(r)) }))
    .filter((c) => c.covered > 0)
    .sort((a, b) => b.covered - a.covered)[0]?.r;
  if (!recording) throw new ClipNotYet('No recording of the live stream covers the moment\'s clip window.');
  const cut = cutWithin(window, recording.recording_started_at!, lastFrame(recording))!;

  const stream = await scoped(trx, scope).selectFrom('live_streams').select('provider_ref').where('id', '=', moment.live_stream_id).executeTakeFirst();
  const network = deps.networks.byProvider(recording.provider);
  const onNetwork = stream ? await callNetwork(() => network.getRecording(stream.provider_ref, recording.recording_started_at!)) : null;
  if (!onNetwork || onNetwork.status !== 'ready') throw new ClipNotYet('The recording is not ready on the video network yet.');

  const { assetRow, asset } = await cutClip(trx, deps, scope, recording, {
    sourceRef: onNetwork.providerRef,
    startTime: cut.startTime,
    endTime: cut.endTime,
    playbackPolicy: recording.playback_policy,
    generatedSubtitles: null,
    momentId: moment.id,
  });
  return { recording, clipAsset: { ...assetRow, status: asset.status } as AssetRow };
}

/**
 * One try of a moment's clip (steps 2 and 3 of the pipeline). Success makes the clip ready (or waits for the
 * network to finish the clip asset); a failed try queues the next after 30 s, 1, 2, 4, 8, 10 and 10 minutes,
 * and the 8th failed try marks the clip `failed`. Safe to run twice: a try already made, a cancelled moment
 * or a finished clip make it do nothing.
 */
export async function cutMomentClip(deps: MediaDeps, job: CutMomentClipJob): Promise<void> {
  const scope = { tenantId: job.tenant_id, livemode: job.livemode };
  await deps.db.transaction().execute(async (trx) => {
    const moment = await repo.findMoment(trx, scope, job.moment_id, { forUpdate: true });
    if (!moment || moment.clip_status !== 'pending' || moment.clip_asset_id || moment.clip_attempts !== job.attempt - 1) return;
    let outcome: Awaited<ReturnType<typeof tryCut>>;
    try {
      outcome = await tryCut(trx, deps, scope, moment);
    } catch (err) {
      if (!(err instanceof ClipNotYet || err instanceof ApiError)) throw err;
      const delay = clipRetryDelay(job.attempt);
      if (delay === null) {
        await markClipFailed(trx, scope, moment, err.message, job.attempt);
        return;
      }
      const at = new Date(deps.now().getTime() + delay * 1000);
      await repo.updateMoment(trx, scope, moment.id, { clip_attempts: job.attempt, clip_next_attempt_at: at });
      await scheduleClipTry(trx, scope, moment.id, job.attempt + 1, at);
      return;
    }
    const { recording, clipAsset } = outcome;
    if (clipAsset.status === 'ready') {
      await repo.updateMoment(trx, scope, moment.id, { clip_attempts: job.attempt });
      await markClipReady(trx, scope, { ...moment, clip_attempts: job.attempt }, clipAsset, recording);
    } else {
      await repo.updateMoment(trx, scope, moment.id, {
        clip_attempts: job.attempt,
        clip_asset_id: clipAsset.id,
        recording_asset_id: recording.id,
        clip_next_attempt_at: null,
      });
    }
  });
}

export const cutMomentClipJob = (deps: MediaDeps): JobDefinition<CutMomentClipJob> => ({
  ...cutMomentClipJobType,
  handler: async (jobs) => {
    for (const job of jobs) await cutMomentClip(deps, job);
  },
});
