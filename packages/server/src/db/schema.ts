import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type {
  EmailOutboxTable,
  EventLogTable,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from './events-webhooks.schema';
import type {
  LiveStreamsTable,
  MediaNetworkAddressTable,
  PlaybackIdsTable,
  PlaybackSigningKeysTable,
  SimulcastTargetsTable,
} from './streams-live.schema';
import type { AccessSessionsTable, CustomerTokenKeysTable, EntitlementsTable } from './access.schema';
import type { ProviderConfigsTable, ProviderNotificationsTable, StreamSettingsTable } from './provider-configs.schema';
import type { IdentityTables } from './identity.schema';
import type { TicketingTables } from './ticketing.schema';
import type { MessagingTables } from './messaging.schema';
import type { CreatorsTables } from './creators.schema';
import type { WhitelabelTables } from './whitelabel.schema';
import type { PromotersTables } from './promoters.schema';
import type { PaymentsTables } from './payments.schema';
import type { FanbasesTables } from './fanbases.schema';
import type { CommerceTables } from './commerce.schema';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface TenantsTable {
  id: string;
  name: string;
  products: string[];
  rate_limit_secret: number;
  rate_limit_publishable: number;
  /** The video network of the tenant's live mode (test mode is always `simulated`); `null` until the operator picks one. */
  video_live_network: string | null;
  /** The tenant has its own video environment, so it may create playback signing keys. */
  video_dedicated_environment: Generated<boolean>;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Unique slug that names the tenant in `X-Tenant-Code` / `Svc-Tenant`. */
  code: string;
}

export interface ApiKeysTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  type: 'secret' | 'restricted' | 'publishable';
  name: string | null;
  /** The type prefix plus the first 8 random characters, for people to recognise the key by. */
  redacted: string;
  /** SHA-256 of the whole key, hex; the key itself is never stored. */
  secret_hash: string;
  scopes: string[] | null;
  ip_allowlist: string[] | null;
  created_by: string | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
}

export interface IdempotencyKeysTable {
  tenant_id: string;
  livemode: boolean;
  key: string;
  method: string;
  path: string;
  request_hash: string;
  /** null while the first request still runs. */
  response_status: number | null;
  /** The answer's JSON, sealed with the SecretBox (a JSON string). */
  response_body: Json<unknown> | null;
  locked_until: Date;
  created_at: Timestamp;
}

/** The one value sealed with the database's encryption key (`checkEncryptionKey`). */
export interface EncryptionKeyCheckTable {
  id: Generated<boolean>;
  sealed: string;
  created_at: Generated<Date>;
}

/** The version of a kept list per tenant and environment, counted by its tables' triggers (`VersionedPages`). */
export interface ListVersionsTable {
  tenant_id: string;
  livemode: boolean;
  list: string;
  version: number;
  xact: string;
}

/** Streams: an asset (source url, upload, clip or a live stream's recording). Deleted ones keep their row. */
export interface AssetsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  status: 'preparing' | 'ready' | 'errored';
  error: string | null;
  source: 'upload' | 'url' | 'clip' | 'recording';
  provider: string;
  provider_asset_id: string | null;
  source_url: string | null;
  duration: number | null;
  audio_only: Generated<boolean>;
  playback_policy: 'signed' | 'public';
  generated_subtitles: string | null;
  live_stream_id: string | null;
  /** Recordings: clock time of the first and last frame. */
  recording_started_at: Date | null;
  recording_ended_at: Date | null;
  clip_id: string | null;
  upload_id: string | null;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  deleted_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UploadsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  status: 'waiting' | 'asset_created';
  cors_origin: string | null;
  /** The one-time URL, sealed with the SecretBox (it is a bearer secret). */
  url_sealed: string;
  provider: string;
  provider_upload_id: string | null;
  asset_id: string | null;
  playback_policy: 'signed' | 'public';
  asset_metadata: Json<Record<string, string>>;
  max_bytes: number;
  received_bytes: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ClipsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  asset_id: string;
  source_asset_id: string;
  start_time: number;
  end_time: number;
  moment_id: string | null;
  created_at: Timestamp;
}

export interface MomentsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  live_stream_id: string;
  type: string;
  label: string | null;
  customer: string | null;
  clip_before_s: number | null;
  clip_after_s: number | null;
  occurred_at: Date;
  clip_status: 'pending' | 'ready' | 'failed' | null;
  clip_error: string | null;
  clip_asset_id: string | null;
  clip_attempts: Generated<number>;
  clip_next_attempt_at: Date | null;
  recording_asset_id: string | null;
  metadata: Json<Record<string, string>>;
  cancelled_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One API request made with a tenant's key or a member's token (the request log). */
export interface RequestLogsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  method: string;
  path: string;
  status: number;
  api_key_id: string | null;
  user_id: string | null;
  latency_ms: number;
  error: Json<Record<string, unknown> | null> | null;
  created_at: Timestamp;
}

export interface DB extends IdentityTables, TicketingTables, MessagingTables, CreatorsTables, WhitelabelTables, PaymentsTables, FanbasesTables, CommerceTables, PromotersTables {
  tenants: TenantsTable;
  request_logs: RequestLogsTable;
  api_keys: ApiKeysTable;
  idempotency_keys: IdempotencyKeysTable;
  list_versions: ListVersionsTable;
  encryption_key_check: EncryptionKeyCheckTable;
  event_log: EventLogTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  email_outbox: EmailOutboxTable;
  assets: AssetsTable;
  uploads: UploadsTable;
  clips: ClipsTable;
  moments: MomentsTable;
  live_streams: LiveStreamsTable;
  simulcast_targets: SimulcastTargetsTable;
  playback_ids: PlaybackIdsTable;
  playback_signing_keys: PlaybackSigningKeysTable;
  media_network_address: MediaNetworkAddressTable;
  entitlements: EntitlementsTable;
  access_sessions: AccessSessionsTable;
  customer_token_keys: CustomerTokenKeysTable;
  provider_configs: ProviderConfigsTable;
  stream_settings: StreamSettingsTable;
  provider_notifications: ProviderNotificationsTable;
}

export type TenantRow = Selectable<TenantsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKeyRow = Insertable<ApiKeysTable>;
export type ApiKeyUpdate = Updateable<ApiKeysTable>;
export type { Generated };
