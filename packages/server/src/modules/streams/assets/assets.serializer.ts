import type { Selectable, Transaction } from 'kysely';
import type { Asset } from '@svc/contract';
import type { Executor } from '../../../db/database';
import type { AssetsTable, DB } from '../../../db/schema';
import { emitEvent } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';
import { playbackIdRefsIn } from '../playback-ids/playback-id-rows';

export type AssetRow = Selectable<AssetsTable>;
type PlaybackIdRef = Asset['playback_ids'][number];

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function serializeAsset(row: AssetRow, playbackIds: PlaybackIdRef[]): Asset {
  return {
    id: row.id,
    object: 'asset',
    livemode: row.livemode,
    status: row.status,
    error: row.error,
    source: row.source,
    duration: row.duration,
    audio_only: row.audio_only,
    playback_ids: playbackIds,
    provider: row.provider,
    generated_subtitles: row.generated_subtitles,
    live_stream: row.live_stream_id,
    recording_started_at: iso(row.recording_started_at),
    recording_ended_at: iso(row.recording_ended_at),
    clip: row.clip_id,
    upload: row.upload_id,
    external_id: row.external_id,
    metadata: row.metadata,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

/** Assets as the API shows them, with their playback ids loaded in one query. */
export async function presentAssets(db: Executor, scope: Scope, rows: AssetRow[]): Promise<Asset[]> {
  const refs = await playbackIdRefsIn(db, scope, rows.map((r) => r.id));
  return rows.map((r) => serializeAsset(r, refs.get(r.id) ?? []));
}

export async function presentAsset(db: Executor, scope: Scope, row: AssetRow): Promise<Asset> {
  return (await presentAssets(db, scope, [row]))[0]!;
}

type AssetEventType = 'streams.asset.created' | 'streams.asset.ready' | 'streams.asset.errored' | 'streams.asset.updated' | 'streams.asset.deleted';

/** Emits an asset event in the transaction of the change; returns the asset as shown. */
export async function emitAssetEvent(
  trx: Transaction<DB>,
  scope: Scope,
  type: AssetEventType,
  row: AssetRow,
  previousAttributes?: Record<string, unknown>,
): Promise<Asset> {
  const asset = await presentAsset(trx, scope, row);
  await emitEvent(trx, scope, { type, subject: asset.id, object: asset, previousAttributes });
  return asset;
}
