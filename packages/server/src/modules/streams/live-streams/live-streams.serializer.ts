import type { LiveStream, LiveStreamEventObject, SimulcastTarget } from '@svc/contract';
import type { LiveStreamRow, SimulcastTargetRow } from '../../../db/streams-live.schema';
import type { SecretBox } from '../../../core/secret-box';
import type { PlaybackIdRef } from '../playback-ids/playback-ids.service';

/**
 * Sealed secrets are bound to their row and field, so a ciphertext copied onto another stream, or from the
 * passphrase column into the key column, does not open.
 */
export const secretContext = (rowId: string, field: 'stream_key' | 'srt_passphrase') => `${rowId}:${field}`;

/** A timestamp as the API shows it: a `Date` formatted, or text that already is (pages, see `listLiveStreams`). */
const apiTime = (t: Date | string) => (typeof t === 'string' ? t : t.toISOString());

/** What a target is shown with (a list's page reads it as JSON, `created_at` then the API's text). */
export type ShownSimulcastTarget = Pick<SimulcastTargetRow, 'id' | 'url' | 'status' | 'error'> & { created_at: Date | string };

/** What a stream is shown with besides its own row. */
export interface LiveStreamRelations {
  targets: ShownSimulcastTarget[];
  playbackIds: PlaybackIdRef[];
}

export function serializeSimulcastTarget(row: ShownSimulcastTarget): SimulcastTarget {
  return {
    id: row.id,
    object: 'simulcast_target',
    url: row.url,
    status: row.status,
    error: row.error,
    created_at: apiTime(row.created_at),
  };
}

/**
 * The columns a stream is shown with. Its timestamps come as `Date`s (a row read as columns) or as the API's
 * text, made by PostgreSQL (a page read as one JSON value per stream, see `listLiveStreams`).
 */
export type ShownLiveStream = Pick<
  LiveStreamRow,
  | 'id'
  | 'livemode'
  | 'status'
  | 'provider'
  | 'latency_mode'
  | 'reconnect_window'
  | 'audio_only'
  | 'playback_policy'
  | 'stream_key_sealed'
  | 'srt_passphrase_sealed'
  | 'ingest'
  | 'health'
  | 'sequence'
  | 'external_id'
  | 'metadata'
> & { created_at: Date | string; updated_at: Date | string };

/**
 * The stream as one object, its fields in the event's order, with the unsealed secrets last in `ingest` when a
 * box is given: spreading the event's object and its `ingest` into copies made three objects per stream, and a
 * page of 20 streams spent more on those copies than on the streams' own fields.
 */
function streamObject(row: ShownLiveStream, rel: LiveStreamRelations, secrets?: SecretBox) {
  const ingest: Record<string, string | null> = {
    rtmp_url: row.ingest.rtmp_url,
    rtmp_backup_url: row.ingest.rtmp_backup_url,
    srt_url: row.ingest.srt_url,
    whip_url: row.ingest.whip_url,
  };
  if (secrets) {
    ingest.stream_key = secrets.decrypt(row.stream_key_sealed, secretContext(row.id, 'stream_key'));
    ingest.srt_passphrase = row.srt_passphrase_sealed ? secrets.decrypt(row.srt_passphrase_sealed, secretContext(row.id, 'srt_passphrase')) : null;
  }
  return {
    id: row.id,
    object: 'live_stream' as const,
    livemode: row.livemode,
    status: row.status,
    provider: row.provider,
    latency_mode: row.latency_mode,
    reconnect_window: row.reconnect_window,
    audio_only: row.audio_only,
    playback_policy: row.playback_policy,
    simulcast_targets: rel.targets.map(serializeSimulcastTarget),
    playback_ids: rel.playbackIds,
    health: { status: row.health.status, network: row.health.network, reason: row.health.reason, changed_at: row.health.changed_at },
    sequence: Number(row.sequence),
    ingest,
    external_id: row.external_id,
    metadata: row.metadata,
    created_at: apiTime(row.created_at),
    updated_at: apiTime(row.updated_at),
  };
}

/** The stream without its secrets: the shape of `data.object` in events. */
export const serializeLiveStreamForEvent = (row: ShownLiveStream, rel: LiveStreamRelations): LiveStreamEventObject =>
  streamObject(row, rel) as LiveStreamEventObject;

/** The stream as its own API responses show it: with the stream key and SRT passphrase, unsealed. */
export const serializeLiveStream = (row: ShownLiveStream, rel: LiveStreamRelations, secrets: SecretBox): LiveStream =>
  streamObject(row, rel, secrets) as LiveStream;
