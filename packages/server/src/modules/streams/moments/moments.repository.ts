import type { Insertable, Selectable, Updateable } from 'kysely';
import type { CursorPageQuery } from '@svc/contract';
import type { Executor } from '../../../db/database';
import type { MomentsTable } from '../../../db/schema';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';

export type MomentRow = Selectable<MomentsTable>;

export async function insertMoment(db: Executor, scope: Scope, moment: Omit<Insertable<MomentsTable>, 'tenant_id' | 'livemode'>) {
  return scoped(db, scope).insertInto('moments', moment).returningAll().executeTakeFirstOrThrow();
}

export async function findMoment(db: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}) {
  let q = scoped(db, scope).selectFrom('moments').selectAll().where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findMomentsWaitingOnClip(db: Executor, scope: Scope, clipAssetId: string) {
  return scoped(db, scope)
    .selectFrom('moments')
    .selectAll()
    .where('clip_asset_id', '=', clipAssetId)
    .where('clip_status', '=', 'pending')
    .forUpdate()
    .execute();
}

export async function updateMoment(db: Executor, scope: Scope, id: string, changes: Updateable<MomentsTable>) {
  return scoped(db, scope)
    .updateTable('moments')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Moments of a stream inside a recording's span (an open recording reaches to now), not cancelled, newest first. */
export async function listMomentsInRecording(
  db: Executor,
  scope: Scope,
  recording: { live_stream_id: string; recording_started_at: Date; recording_ended_at: Date | null },
  page: CursorPageQuery,
) {
  let q = scoped(db, scope)
    .selectFrom('moments')
    .selectAll()
    .where('live_stream_id', '=', recording.live_stream_id)
    .where('cancelled_at', 'is', null)
    .where('occurred_at', '>=', recording.recording_started_at);
  if (recording.recording_ended_at) q = q.where('occurred_at', '<=', recording.recording_ended_at);
  return paginate(q, 'moments.id', page);
}

/** The stream a moment is marked on; deleted streams take no new moments. */
export async function findLiveStream(db: Executor, scope: Scope, id: string) {
  return scoped(db, scope)
    .selectFrom('live_streams')
    .select(['id', 'provider', 'provider_ref', 'deleted_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}
