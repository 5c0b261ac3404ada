import type { ColumnType, Generated, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | undefined, string>;

/** The set branding fields by dotted name (`colors.primary`); a field absent inherits. */
export type BrandFields = Record<string, string>;

/** A tenant's branding (`organization_id` '') or an organization's, per environment. */
export interface BrandingsTable {
  tenant_id: string;
  livemode: boolean;
  organization_id: string;
  fields: Json<BrandFields>;
  updated_at: Timestamp;
}

export interface DomainsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  hostname: string;
  organization_id: string | null;
  serves: string[];
  status: 'pending_verification' | 'verified' | 'active' | 'failed';
  verification_value: string;
  check_token: string;
  failure_reason: 'txt_not_found' | 'not_routed' | 'txt_removed' | null;
  trusted_origin: Generated<boolean>;
  /** Daily re-checks of an active domain that found no TXT record, in a row. */
  txt_misses: Generated<number>;
  /** Checks made since the last state change: the backoff grows with them. */
  checks: Generated<number>;
  verified_at: Date | null;
  activated_at: Date | null;
  failed_at: Date | null;
  last_checked_at: Date | null;
  next_check_at: Date | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
}

export interface WhitelabelTables {
  brandings: BrandingsTable;
  domains: DomainsTable;
}

export type DomainRow = Selectable<DomainsTable>;
