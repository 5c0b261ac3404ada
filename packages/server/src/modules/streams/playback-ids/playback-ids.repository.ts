import type { Insertable } from 'kysely';
import type { Executor } from '../../../db/database';
import type { PlaybackIdRow, PlaybackIdsTable } from '../../../db/streams-live.schema';
import { newId } from '../../../core/ids';
import { scoped, type Scope } from '../../../core/scope';

/** `id` is made here unless given. */
export type NewPlaybackId = Omit<Insertable<PlaybackIdsTable>, 'tenant_id' | 'livemode' | 'id'> & { id?: string };
export interface PlaybackIdRef {
  id: string;
  policy: 'signed' | 'public';
}

export async function insertPlaybackId(db: Executor, scope: Scope, row: NewPlaybackId): Promise<PlaybackIdRow> {
  return scoped(db, scope)
    .insertInto('playback_ids', { ...row, id: row.id ?? newId('playback_id') })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findPlaybackId(db: Executor, scope: Scope, id: string): Promise<PlaybackIdRow | undefined> {
  return scoped(db, scope).selectFrom('playback_ids').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * A playback id by its id alone, for the public playback route: a player brings no API key, so the row's own
 * tenant and environment become the scope of everything that follows.
 */
export async function findPlaybackIdForPlayer(db: Executor, id: string): Promise<PlaybackIdRow | undefined> {
  return db.selectFrom('playback_ids').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The playback ids of live streams and assets, oldest first, by resource id. */
export async function listPlaybackIdRefs(db: Executor, scope: Scope, resourceIds: string[]): Promise<Map<string, PlaybackIdRef[]>> {
  const byResource = new Map<string, PlaybackIdRef[]>(resourceIds.map((id) => [id, []]));
  if (resourceIds.length === 0) return byResource;
  const rows = await scoped(db, scope)
    .selectFrom('playback_ids')
    .select(['id', 'policy', 'live_stream_id', 'asset_id'])
    .where((eb) => eb.or([eb('live_stream_id', 'in', resourceIds), eb('asset_id', 'in', resourceIds)]))
    .orderBy('id')
    .execute();
  for (const row of rows) byResource.get((row.live_stream_id ?? row.asset_id)!)?.push({ id: row.id, policy: row.policy });
  return byResource;
}

export async function deletePlaybackId(db: Executor, scope: Scope, id: string): Promise<void> {
  await scoped(db, scope).deleteFrom('playback_ids').where('id', '=', id).execute();
}

/** Removes every playback id of a resource (when it is deleted): its links stop working at once. */
export async function deletePlaybackIdsOf(db: Executor, scope: Scope, resource: { liveStreamId?: string; assetId?: string }) {
  let q = scoped(db, scope).deleteFrom('playback_ids');
  q = resource.liveStreamId ? q.where('live_stream_id', '=', resource.liveStreamId) : q.where('asset_id', '=', resource.assetId!);
  await q.execute();
}
