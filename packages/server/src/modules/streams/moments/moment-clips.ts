import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema';
import { emitEvent } from '../../../core/events/emit-event';
import { scoped, type Scope } from '../../../core/scope';
import { z } from 'zod';
import { defineJob } from '../../../jobs/job-definition';
import { jobOf, sendInTransaction } from '../../../jobs/send-in-transaction';
import type { AssetRow } from '../assets/assets.serializer';
import * as repo from './moments.repository';
import { serializeMoment } from './moments.serializer';

/** One try of a moment's clip; `attempt` is 1 for the first, and a job whose try was already made (a duplicate) does nothing. */
export const cutMomentClipJobType = defineJob({
  name: 'streams-cut-moment-clip',
  version: 1,
  payload: z.object({ tenant_id: z.string(), livemode: z.boolean(), moment_id: z.string(), attempt: z.number().int().min(1) }),
  retry: { limit: 2 },
  // A cut asks the video network and may wait on it; a try is safe to run again.
  expireInSeconds: 300,
});
export type CutMomentClipJob = z.infer<typeof cutMomentClipJobType.payload>;

/** Queues try number `attempt` of a moment's clip for `at`, in the transaction that decided it. */
export async function scheduleClipTry(trx: Transaction<DB>, scope: Scope, momentId: string, attempt: number, at: Date): Promise<void> {
  const data: CutMomentClipJob = { tenant_id: scope.tenantId, livemode: scope.livemode, moment_id: momentId, attempt };
  await sendInTransaction(trx, [jobOf(cutMomentClipJobType, data, at)]);
}

/** The moment's clip can be played: `clip_status: ready` and `streams.moment.clip_ready` with `customer` and `clip_asset`. */
export async function markClipReady(trx: Transaction<DB>, scope: Scope, moment: repo.MomentRow, clipAsset: AssetRow, recording: AssetRow) {
  const updated = await repo.updateMoment(trx, scope, moment.id, {
    clip_status: 'ready',
    clip_error: null,
    clip_asset_id: clipAsset.id,
    recording_asset_id: recording.id,
    clip_next_attempt_at: null,
  });
  const shown = serializeMoment(updated, recording);
  await emitEvent(trx, scope, {
    type: 'streams.moment.clip_ready',
    subject: moment.id,
    object: shown,
    previousAttributes: { clip_status: moment.clip_status, clip_asset: moment.clip_asset_id },
  });
  return shown;
}

/** No clip after all: `clip_status: failed` with `clip_error`, and `streams.moment.clip_failed`. */
export async function markClipFailed(trx: Transaction<DB>, scope: Scope, moment: repo.MomentRow, error: string, attempts: number) {
  const updated = await repo.updateMoment(trx, scope, moment.id, {
    clip_status: 'failed',
    clip_error: error,
    clip_attempts: attempts,
    clip_next_attempt_at: null,
  });
  const recording = updated.recording_asset_id
    ? await scoped(trx, scope).selectFrom('assets').select(['id', 'recording_started_at']).where('id', '=', updated.recording_asset_id).executeTakeFirst()
    : undefined;
  const shown = serializeMoment(updated, recording ?? null);
  await emitEvent(trx, scope, {
    type: 'streams.moment.clip_failed',
    subject: moment.id,
    object: shown,
    previousAttributes: { clip_status: moment.clip_status, clip_error: moment.clip_error },
  });
  return shown;
}

/**
 * A clip asset a network finished later (not at once) settles the moments waiting on it: `ready` makes the
 * clip ready; `errored` fails it with the asset's error (the cut was made, so trying again would not help).
 */
export async function settleMomentClips(trx: Transaction<DB>, scope: Scope, clipAsset: AssetRow): Promise<void> {
  if (clipAsset.source !== 'clip' || clipAsset.status === 'preparing') return;
  for (const moment of await repo.findMomentsWaitingOnClip(trx, scope, clipAsset.id)) {
    const recording = moment.recording_asset_id
      ? await scoped(trx, scope).selectFrom('assets').selectAll().where('id', '=', moment.recording_asset_id).executeTakeFirst()
      : undefined;
    if (clipAsset.status === 'ready' && recording) await markClipReady(trx, scope, moment, clipAsset, recording);
    else await markClipFailed(trx, scope, moment, clipAsset.error ?? 'The video network could not finish the clip.', moment.clip_attempts);
  }
}
