import type { z } from 'zod';
import type { CreateMomentSchema, CursorPageQuery, Moment } from '@svc/contract';
import type { Executor } from '../../../db/database';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import { scoped, type Scope } from '../../../core/scope';
import { openRecordingOf } from '../assets/recordings.service';
import { getAssetRow } from '../assets/assets.service';
import type { MediaDeps } from '../assets/media-deps';
import { clipWindow, firstTryAt } from './clip-schedule';
import { scheduleClipTry } from './moment-clips';
import * as repo from './moments.repository';
import { serializeMoment, type RecordingRef } from './moments.serializer';

type CreateMomentInput = z.infer<typeof CreateMomentSchema>;

/** The moment with `offset_s` from the recording it was marked in (deleted recordings still give the offset). */
export async function presentMoment(db: Executor, scope: Scope, row: repo.MomentRow): Promise<Moment> {
  const recording: RecordingRef | undefined = row.recording_asset_id
    ? await scoped(db, scope)
        .selectFrom('assets')
        .select(['id', 'recording_started_at'])
        .where('id', '=', row.recording_asset_id)
        .executeTakeFirst()
    : undefined;
  return serializeMoment(row, recording ?? null);
}

async function getMomentRow(db: Executor, scope: Scope, id: string, forUpdate = false) {
  const row = isIdOf('moment', id) ? await repo.findMoment(db, scope, id, { forUpdate }) : undefined;
  if (!row) throw ApiError.notFound('moment', id);
  return row;
}

/**
 * Marks now on a live stream. With a clip window the clip is `pending`, and its first try is queued for
 * when the window has closed plus the short settle wait; without one `clip_status` is `null`.
 */
export async function createMoment(deps: MediaDeps, scope: Scope, liveStreamId: string, input: CreateMomentInput): Promise<Moment> {
  return deps.db.transaction().execute(async (trx) => {
    const stream = isIdOf('live_stream', liveStreamId) ? await repo.findLiveStream(trx, scope, liveStreamId) : undefined;
    if (!stream || stream.deleted_at) throw ApiError.notFound('live stream', liveStreamId);
    const occurredAt = deps.now();
    const clipped = input.clip_before_s !== undefined || input.clip_after_s !== undefined;
    const recording = await openRecordingOf(trx, scope, stream.id);
    const row = await repo.insertMoment(trx, scope, {
      id: newId('moment'),
      live_stream_id: stream.id,
      type: input.type,
      label: input.label ?? null,
      customer: input.customer ?? null,
      clip_before_s: clipped ? (input.clip_before_s ?? 0) : null,
      clip_after_s: clipped ? (input.clip_after_s ?? 0) : null,
      occurred_at: occurredAt,
      clip_status: clipped ? 'pending' : null,
      recording_asset_id: recording?.id ?? null,
      metadata: JSON.stringify(input.metadata ?? {}),
    });
    if (clipped) {
      const at = firstTryAt(clipWindow(row), deps.config.SVC_CLIP_SETTLE_SECONDS);
      await repo.updateMoment(trx, scope, row.id, { clip_next_attempt_at: at });
      await scheduleClipTry(trx, scope, row.id, 1, at);
    }
    return serializeMoment(row, recording ?? null);
  });
}

export async function getMoment(db: Executor, scope: Scope, id: string): Promise<Moment> {
  return presentMoment(db, scope, await getMomentRow(db, scope, id));
}

/** Takes a moment back: out of the recording's list, `clip_status: null`; a queued clip try finds nothing to do. */
export async function cancelMoment(deps: MediaDeps, scope: Scope, id: string): Promise<Moment> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await getMomentRow(trx, scope, id, true);
    if (row.cancelled_at) return presentMoment(trx, scope, row);
    const updated = await repo.updateMoment(trx, scope, id, { cancelled_at: deps.now(), clip_status: null, clip_next_attempt_at: null });
    return presentMoment(trx, scope, updated);
  });
}

/** Moments inside a recording, each with `offset_s` from its first frame; any other asset has none (`{data: []}`). */
export async function listMomentsForAsset(db: Executor, scope: Scope, assetId: string, page: CursorPageQuery) {
  const asset = await getAssetRow(db, scope, assetId);
  if (asset.source !== 'recording' || !asset.live_stream_id || !asset.recording_started_at) return { data: [] };
  const recording = { live_stream_id: asset.live_stream_id, recording_started_at: asset.recording_started_at, recording_ended_at: asset.recording_ended_at };
  const result = await repo.listMomentsInRecording(db, scope, recording, page);
  return { ...result, data: result.data.map((m) => serializeMoment(m, asset)) };
}
