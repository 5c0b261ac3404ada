import type { ColumnType, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** A tenant's own video account in one environment; every secret sits sealed in `secrets_sealed`. */
export interface ProviderConfigsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  provider: string;
  account_id: string;
  customer_code: string;
  signing_key_id: string;
  secrets_sealed: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One row per tenant and environment once the settings were changed; none means `standard`. */
export interface StreamSettingsTable {
  tenant_id: string;
  livemode: boolean;
  live_network: string;
  provider_config_id: string | null;
  updated_at: Timestamp;
}

/** An inbound notification already taken, by the provider's own id: a replay finds it and changes nothing. */
export interface ProviderNotificationsTable {
  provider_config_id: string;
  notification_id: string;
  kind: string;
  subject: string | null;
  received_at: Timestamp;
}

export type ProviderConfigRow = Selectable<ProviderConfigsTable>;
