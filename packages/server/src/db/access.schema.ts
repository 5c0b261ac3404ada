import type { ColumnType, Generated, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

/** `limits` as stored: every field present, `null` where there is no limit. */
export interface EntitlementLimitsColumn {
  max_devices: number | null;
  max_concurrent_sessions: number | null;
  concurrency_policy: 'replace_oldest' | 'reject_new';
  max_views: number | null;
  allowed_countries: string[] | null;
  allowed_domains: string[] | null;
}

/** One customer (`customer` or `contact_hash`) may use one live stream or asset within limits. */
export interface EntitlementsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  customer: string | null;
  /** Lower-case hex. */
  contact_hash: string | null;
  resource_type: 'ls' | 'ast';
  resource_id: string;
  source: string;
  source_ref: string | null;
  starts_at: Date | null;
  ends_at: Date | null;
  limits: Json<EntitlementLimitsColumn>;
  /** `active` rows past `ends_at` read as `expired` until the expiry sweep writes it. */
  status: 'active' | 'suspended' | 'revoked' | 'expired';
  /** Sessions opened that counted as a view (`max_views`); written under the row's lock. */
  views_used: Generated<number>;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A viewer's playback of a resource under an entitlement; kept after it ends (devices and views count them). */
export interface AccessSessionsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  entitlement_id: string;
  customer: string | null;
  contact_hash: string | null;
  resource_type: 'ls' | 'ast';
  resource_id: string;
  variant: string | null;
  device_id: string;
  state: 'active' | 'ended';
  ended_reason: 'client' | 'missed_heartbeats' | 'replaced_by_newer_session' | 'entitlement_inactive' | null;
  /** What the grant plays, so a heartbeat re-signs the link without looking the resource up again. */
  playback_id: string;
  playback_policy: 'signed' | 'public';
  provider: string;
  /** The customer token key that opened it (publishable key), or `null` for a server call. */
  token_key_id: string | null;
  last_heartbeat_at: Date;
  /** `last_heartbeat_at` plus 90 s: two missed heartbeats. */
  expires_at: Date;
  created_at: Timestamp;
  ended_at: Date | null;
}

/** HS256 keys for customer tokens; the secret is sealed with the SecretBox (bound to the key id) since HMAC needs it back. */
export interface CustomerTokenKeysTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  name: string;
  secret_sealed: string;
  revoked_at: Date | null;
  created_at: Timestamp;
  /** The key the service signs customer tokens with for signed-in people (identity); one per environment. */
  managed: Generated<boolean>;
}

export type EntitlementRow = Selectable<EntitlementsTable>;
export type AccessSessionRow = Selectable<AccessSessionsTable>;
export type CustomerTokenKeyRow = Selectable<CustomerTokenKeysTable>;
