import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface EventLogTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  type: string;
  subject: string;
  /** The serialised envelope: every delivery sends these exact bytes. */
  envelope: string;
  created_at: Timestamp;
}

export interface WebhookEndpointsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  url: string;
  description: string | null;
  enabled_events: string[];
  api_version: string;
  status: 'enabled' | 'disabled';
  disabled_reason: 'manual' | 'gone' | 'failing' | null;
  disabled_at: Date | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type DeliveryState = 'queued' | 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  endpoint_id: string;
  event_id: string;
  kind: 'event' | 'replay' | 'test';
  state: DeliveryState;
  attempt_count: ColumnType<number, number | undefined, number>;
  first_attempt_at: Date | null;
  next_attempt_at: Date | null;
  queued_at: Date | null;
  leased_until: Date | null;
  created_at: Timestamp;
  completed_at: Date | null;
}

export interface WebhookAttemptsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  endpoint_id: string;
  delivery_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  url: string;
  status_code: number | null;
  succeeded: boolean;
  latency_ms: number;
  response_body: string | null;
  error: string | null;
  next_attempt_at: Date | null;
  created_at: Timestamp;
}

export interface EmailOutboxTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  /** Who it goes to, as a role the messaging product resolves (`tenant_owners`). */
  recipients: string;
  template: string;
  subject: string;
  body: string;
  data: Json<Record<string, unknown>>;
  created_at: Timestamp;
  sent_at: Date | null;
}
