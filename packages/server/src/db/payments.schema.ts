import type { ColumnType, Generated, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

/** A tenant's account at a payment provider in one environment; every secret sits sealed in `secrets_sealed`. */
export interface PaymentProviderConfigsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  type: 'mpesa' | 'paystack' | 'stripe';
  name: string;
  organization_id: string | null;
  account: Json<Record<string, string | null>>;
  secret_fields: string[];
  secrets_sealed: string;
  status: Generated<'active' | 'failing'>;
  last_error: Json<{ code: string; message: string; at: string } | null> | null;
  verified_at: Date | null;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One row per tenant and environment once changed; none means no configuration and `accept_if_available`. */
export interface PaymentSettingsTable {
  tenant_id: string;
  livemode: boolean;
  provider_configs: string[];
  late_payment_policy: 'accept_if_available' | 'refund';
  updated_at: Timestamp;
}

export interface OrganizationPaymentSettingsTable {
  organization_id: string;
  tenant_id: string;
  livemode: boolean;
  /** `null`: the tenant's list. */
  provider_configs: string[] | null;
  updated_at: Timestamp;
}

/** A verified provider notification, recorded once per configuration and provider event id. */
export interface PaymentNotificationsTable {
  id: Generated<string>;
  provider_config_id: string;
  tenant_id: string;
  livemode: boolean;
  provider_event_id: string;
  kind: string;
  reference: string | null;
  hint: Json<unknown> | null;
  provider_receipt: string | null;
  received_at: Timestamp;
  applied_at: Date | null;
  outcome: string | null;
  /** The `pay_`/`re_`/`po_` id the notification is about, once known (the token's subject, or found by reference). */
  subject_id: string | null;
  /** Tries of the apply job; `last_error` says why the last one did not finish (never a secret). */
  attempts: Generated<number>;
  last_error: string | null;
}

/** The hash of an inbound address's per-operation token (M-Pesa), and what it is about. */
export interface PaymentCallbackTokensTable {
  token_hash: string;
  provider_config_id: string;
  subject_id: string;
  /** What the operation is: an STK push (`payment`), a reversal (`refund`) or a B2C payout (`payout`). */
  subject_type: Generated<'payment' | 'refund' | 'payout'>;
  created_at: Timestamp;
}

export interface PaymentsTables {
  payment_provider_configs: PaymentProviderConfigsTable;
  payment_settings: PaymentSettingsTable;
  organization_payment_settings: OrganizationPaymentSettingsTable;
  payment_notifications: PaymentNotificationsTable;
  payment_callback_tokens: PaymentCallbackTokensTable;
}

export type PaymentProviderConfigRow = Selectable<PaymentProviderConfigsTable>;
