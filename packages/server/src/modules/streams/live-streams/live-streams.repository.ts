import type { CursorPageQuery } from '@svc/contract';
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Executor } from '../../../db/database';
import type { LiveStreamRow, LiveStreamsTable, SimulcastTargetRow, SimulcastTargetsTable } from '../../../db/streams-live.schema';
import { paginate, whereMetadata, type CursorPage } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { PlaybackIdRef } from '../playback-ids/playback-ids.service';
import type { ShownLiveStream, ShownSimulcastTarget } from './live-streams.serializer';
import { literal } from '../../../db/literal';

export type NewLiveStream = Omit<Insertable<LiveStreamsTable>, 'tenant_id' | 'livemode'>;
export type NewSimulcastTarget = Omit<Insertable<SimulcastTargetsTable>, 'tenant_id' | 'livemode'>;

/** Deleted streams keep their row; every read here leaves them out. */
const live = (db: Executor, scope: Scope) => scoped(db, scope).selectFrom('live_streams').where('deleted_at', 'is', null);

export async function insertLiveStream(db: Executor, scope: Scope, row: NewLiveStream): Promise<LiveStreamRow> {
  return scoped(db, scope).insertInto('live_streams', row).returningAll().executeTakeFirstOrThrow();
}

export async function findLiveStream(db: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}) {
  let q = live(db, scope).selectAll().where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** Of these ids, those of live streams that exist (not deleted), with their tenant and environment. */
export async function findLiveStreamScopes(db: Executor, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('live_streams').select(['id', 'tenant_id', 'livemode']).where('id', 'in', ids).where('deleted_at', 'is', null).execute();
}

export async function findLiveStreamByExternalId(db: Executor, scope: Scope, externalId: string) {
  return live(db, scope).selectAll().where('external_id', '=', externalId).executeTakeFirst();
}

/** Every column `ShownLiveStream` names, in the JSON a page reads. */
const SHOWN_COLUMNS = [
  'id',
  'livemode',
  'status',
  'provider',
  'latency_mode',
  'reconnect_window',
  'audio_only',
  'playback_policy',
  'stream_key_sealed',
  'srt_passphrase_sealed',
  'ingest',
  'health',
  'sequence',
  'external_id',
  'metadata',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof ShownLiveStream>;
// A column added to `ShownLiveStream` and not to the list above fails to compile.
true satisfies [Exclude<keyof ShownLiveStream, (typeof SHOWN_COLUMNS)[number]>] extends [never] ? true : never;

/**
 * A timestamp as the API writes it (`toISOString()`: UTC, milliseconds, `Z`), made by PostgreSQL so the serializer
 * passes it on as it is; like `toISOString()` of the `Date` a column read gives, it drops the microseconds.
 */
const apiTime = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const shown = (column: string) => (/\.(created_at|updated_at)$/.test(column) ? apiTime(column) : column);

/** A stream of a page, with its relations: `ShownLiveStream` as PostgreSQL writes it in JSON, timestamps as the API's text. */
export type ListedLiveStream = ShownLiveStream & { shown_targets: ShownSimulcastTarget[]; shown_playback_ids: PlaybackIdRef[] };

/** The JSON value a page reads for each stream: the same text for every page, so it is built once. */
const SHOWN_STREAM = sql<ListedLiveStream>`json_build_object(${sql.raw(SHOWN_COLUMNS.map((c) => `'${c}', ${shown(`live_streams.${c}`)}`).join(', '))},
      'shown_targets', coalesce((select json_agg(json_build_object('id', t.id, 'url', t.url, 'status', t.status, 'error', t.error, 'created_at', ${sql.raw(apiTime('t.created_at'))}) order by t.id) from simulcast_targets t where t.live_stream_id = live_streams.id and t.tenant_id = live_streams.tenant_id and t.livemode = live_streams.livemode), '[]'::json),
      'shown_playback_ids', coalesce((select json_agg(json_build_object('id', p.id, 'policy', p.policy) order by p.id) from playback_ids p where p.live_stream_id = live_streams.id and p.tenant_id = live_streams.tenant_id and p.livemode = live_streams.livemode), '[]'::json))`.as(
  'shown',
);

/**
 * A page is one round trip, each stream one JSON value built by PostgreSQL: the columns the API shows (not the
 * row's others), its simulcast targets and its playback ids. Decoding 25 columns of 21 rows, six of them through
 * type parsers (timestamps, JSON), was the largest part of a page's CPU after the HTTP layer; one JSON value per
 * stream is decoded by one `JSON.parse`, and its timestamps need no `Date` made and formatted again. Same rows, same order as `listSimulcastTargets` and `listPlaybackIdRefs`; a stream's relations
 * share its tenant and environment.
 */
export async function listLiveStreams(
  db: Executor,
  scope: Scope,
  filters: { external_id?: string; metadata?: Record<string, string> },
  page: CursorPageQuery,
): Promise<CursorPage<ListedLiveStream>> {
  let q = live(db, scope).select(['live_streams.id', SHOWN_STREAM]);
  if (filters.external_id) q = q.where('external_id', '=', filters.external_id);
  q = whereMetadata(q, 'live_streams.metadata', filters.metadata);
  const result = await paginate(q, 'live_streams.id', page);
  return { ...result, data: result.data.map((r) => r.shown) };
}

export async function updateLiveStream(
  db: Executor,
  scope: Scope,
  id: string,
  changes: Updateable<LiveStreamsTable>,
): Promise<LiveStreamRow> {
  return scoped(db, scope)
    .updateTable('live_streams')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Takes the next event sequence number of a stream (the row must be locked by the caller's transaction). */
export async function nextSequence(db: Executor, scope: Scope, id: string): Promise<LiveStreamRow> {
  return scoped(db, scope)
    .updateTable('live_streams')
    .set((eb) => ({ sequence: eb('sequence', '+', 1) }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Disconnected streams whose reconnect window has passed, across tenants (the sweep's work list). */
export async function findExpiredReconnectWindows(db: Executor, now: Date, limit = 500) {
  return db
    .selectFrom('live_streams')
    .select(['id', 'tenant_id', 'livemode'])
    .where('status', '=', literal('disconnected'))
    .where('deleted_at', 'is', null)
    .where('reconnect_deadline', '<=', now)
    .orderBy('reconnect_deadline')
    .limit(limit)
    .execute();
}

// Simulcast targets

export async function insertSimulcastTarget(db: Executor, scope: Scope, row: NewSimulcastTarget): Promise<SimulcastTargetRow> {
  return scoped(db, scope).insertInto('simulcast_targets', row).returningAll().executeTakeFirstOrThrow();
}

export async function listSimulcastTargets(db: Executor, scope: Scope, liveStreamIds: string[]): Promise<SimulcastTargetRow[]> {
  if (liveStreamIds.length === 0) return [];
  return scoped(db, scope)
    .selectFrom('simulcast_targets')
    .selectAll()
    .where('live_stream_id', 'in', liveStreamIds)
    .orderBy('id')
    .execute();
}

export async function findSimulcastTarget(db: Executor, scope: Scope, liveStreamId: string, id: string) {
  return scoped(db, scope)
    .selectFrom('simulcast_targets')
    .selectAll()
    .where('live_stream_id', '=', liveStreamId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteSimulcastTargets(db: Executor, scope: Scope, liveStreamId: string, ids?: string[]): Promise<void> {
  let q = scoped(db, scope).deleteFrom('simulcast_targets').where('live_stream_id', '=', liveStreamId);
  if (ids) q = q.where('id', 'in', ids);
  await q.execute();
}
