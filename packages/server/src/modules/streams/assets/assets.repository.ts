import type { Insertable, Updateable } from 'kysely';
import type { CursorPageQuery } from '@svc/contract';
import type { Executor } from '../../../db/database';
import type { AssetsTable } from '../../../db/schema';
import { paginate, whereMetadata } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';

export type NewAsset = Omit<Insertable<AssetsTable>, 'tenant_id' | 'livemode'>;
export type AssetChanges = Updateable<AssetsTable>;

export interface AssetFilters {
  status?: AssetsTable['status'];
  source?: AssetsTable['source'];
  external_id?: string;
  /** The stream's recordings and the clips cut from them. */
  live_stream?: string;
  metadata?: Record<string, string>;
}

/** Assets the tenant can see: deleted ones answer `404` like unknown ids. */
const live = (db: Executor, scope: Scope) => scoped(db, scope).selectFrom('assets').selectAll().where('deleted_at', 'is', null);

export async function insertAsset(db: Executor, scope: Scope, asset: NewAsset) {
  return scoped(db, scope).insertInto('assets', asset).returningAll().executeTakeFirstOrThrow();
}

export async function findAsset(db: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}) {
  let q = live(db, scope).where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** Of these ids, those of assets that exist (not deleted), with their tenant and environment. */
export async function findAssetScopes(db: Executor, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('assets').select(['id', 'tenant_id', 'livemode']).where('id', 'in', ids).where('deleted_at', 'is', null).execute();
}

export async function findAssetByExternalId(db: Executor, scope: Scope, externalId: string) {
  return live(db, scope).where('external_id', '=', externalId).executeTakeFirst();
}

export async function listAssets(db: Executor, scope: Scope, filters: AssetFilters, page: CursorPageQuery) {
  let q = live(db, scope);
  if (filters.status) q = q.where('status', '=', filters.status);
  if (filters.source) q = q.where('source', '=', filters.source);
  if (filters.external_id) q = q.where('external_id', '=', filters.external_id);
  const stream = filters.live_stream;
  if (stream) {
    q = q.where((eb) =>
      eb.or([
        eb('assets.live_stream_id', '=', stream),
        eb(
          'assets.id',
          'in',
          eb.selectFrom('clips').innerJoin('assets as source', 'source.id', 'clips.source_asset_id').select('clips.asset_id').where('source.live_stream_id', '=', stream),
        ),
      ]),
    );
  }
  q = whereMetadata(q, 'assets.metadata', filters.metadata);
  return paginate(q, 'assets.id', page);
}

export async function updateAsset(db: Executor, scope: Scope, id: string, changes: AssetChanges) {
  return scoped(db, scope)
    .updateTable('assets')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The stream's recording that is still growing, if the broadcast is open. */
export async function findOpenRecording(db: Executor, scope: Scope, liveStreamId: string, opts: { forUpdate?: boolean } = {}) {
  let q = live(db, scope)
    .where('source', '=', 'recording')
    .where('live_stream_id', '=', liveStreamId)
    .where('recording_ended_at', 'is', null);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** The recordings of a stream that overlap `from`..`to` (a still-open recording reaches to now), latest first. */
export async function findRecordingsOverlapping(db: Executor, scope: Scope, liveStreamId: string, from: Date, to: Date) {
  return live(db, scope)
    .where('source', '=', 'recording')
    .where('live_stream_id', '=', liveStreamId)
    .where('recording_started_at', '<=', to)
    .where((eb) => eb.or([eb('recording_ended_at', 'is', null), eb('recording_ended_at', '>=', from)]))
    .orderBy('recording_started_at', 'desc')
    .execute();
}

/** The assets among these ids that exist (not deleted) in the scope. */
export async function findAssetsByIds(db: Executor, scope: Scope, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return live(db, scope).where('id', 'in', [...new Set(ids)]).execute();
}
