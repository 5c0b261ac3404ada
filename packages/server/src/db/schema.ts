import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface TenantsTable {
  id: string;
  name: string;
  products: string[];
  rate_limit_secret: number;
  rate_limit_publishable: number;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
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
  response_body: Json<unknown> | null;
  locked_until: Date;
  created_at: Timestamp;
}

export interface DB {
  tenants: TenantsTable;
  api_keys: ApiKeysTable;
  idempotency_keys: IdempotencyKeysTable;
}

export type TenantRow = Selectable<TenantsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKeyRow = Insertable<ApiKeysTable>;
export type ApiKeyUpdate = Updateable<ApiKeysTable>;
export type { Generated };
