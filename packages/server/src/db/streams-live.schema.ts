import type { ColumnType, Generated, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface LiveStreamIngestColumn {
  rtmp_url: string;
  rtmp_backup_url: string | null;
  srt_url: string | null;
  whip_url: string | null;
}

export interface LiveStreamHealthColumn {
  status: 'healthy' | 'unhealthy';
  network: string;
  reason: string | null;
  changed_at: string;
}

/** A live stream; deleted ones keep their row (`deleted_at`) so recordings and moments still point somewhere. */
export interface LiveStreamsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  status: 'idle' | 'connecting' | 'active' | 'disconnected' | 'disabled';
  provider: string;
  provider_ref: string;
  latency_mode: 'low' | 'standard';
  reconnect_window: number;
  audio_only: boolean;
  playback_policy: 'signed' | 'public';
  /** SecretBox ciphertext bound to the stream id. */
  stream_key_sealed: string;
  srt_passphrase_sealed: string | null;
  ingest: Json<LiveStreamIngestColumn>;
  health: Json<LiveStreamHealthColumn>;
  /** Number of events emitted about the stream so far; the next event carries `sequence + 1`. */
  sequence: Generated<number>;
  /** Clock time the current or last broadcast first went `active`. */
  broadcast_started_at: Date | null;
  disconnected_at: Date | null;
  /** When a `disconnected` stream's broadcast ends unless the encoder returns. */
  reconnect_deadline: Date | null;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Date | null;
}

export interface SimulcastTargetsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  live_stream_id: string;
  url: string;
  /** SecretBox ciphertext bound to the target id; never returned. */
  stream_key_sealed: string;
  status: 'active' | 'errored';
  error: string | null;
  provider_ref: string | null;
  created_at: Timestamp;
}

/** Exactly one of `live_stream_id` and `asset_id` is set. */
export interface PlaybackIdsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  live_stream_id: string | null;
  asset_id: string | null;
  policy: 'signed' | 'public';
  created_at: Timestamp;
}

/**
 * RS256 keys for playback tokens. `tenant` keys are the tenant's own (private half handed out once);
 * the `system` key of an environment is the service's, with its private half sealed, to sign the links it issues.
 */
export interface PlaybackSigningKeysTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  kind: 'tenant' | 'system';
  provider: string;
  provider_ref: string;
  public_key_pem: string;
  fingerprint: string;
  private_key_sealed: string | null;
  revoked_at: Date | null;
  created_at: Timestamp;
}

/** One row: the public address of the process running the media network, written when it starts. */
export interface MediaNetworkAddressTable {
  id: ColumnType<number, number | undefined, number>;
  public_base_url: string;
  updated_at: Timestamp;
}

export type LiveStreamRow = Selectable<LiveStreamsTable>;
export type SimulcastTargetRow = Selectable<SimulcastTargetsTable>;
export type PlaybackIdRow = Selectable<PlaybackIdsTable>;
export type PlaybackSigningKeyRow = Selectable<PlaybackSigningKeysTable>;
