import type { ColumnType, Generated, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type MessageStatus = 'queued' | 'sending' | 'sent' | 'delivered' | 'failed' | 'captured' | 'cancelled';

/** The outbox: every message the service sends, written with the change that causes it. */
export interface MessagesTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  channel: 'whatsapp' | 'sms' | 'email';
  to: string;
  template: string;
  subject: string | null;
  body: string;
  /** Holds a code or a link: live mode shows it redacted. */
  sensitive: Generated<boolean>;
  status: MessageStatus;
  error_code: string | null;
  related: string[];
  /** What a provider's template takes besides the text (`code` for an authentication template). */
  params: ColumnType<Record<string, string>, string | undefined, string>;
  attempts: Generated<number>;
  /** When a retry is due, by the outbox clock; `null` for the first attempt. */
  next_attempt_at: Date | null;
  /** When its job was sent; `null` while it waits for the scheduler. */
  job_queued_at: Date | null;
  /** How long a `sending` attempt may run before a crash is assumed (database time). */
  lease_until: Date | null;
  /** The channel adapter that took it (`smtp`, `africastalking`, `whatsapp`) and its id there. */
  provider: string | null;
  provider_id: string | null;
  /** A code's expiry: never sent after it. */
  expires_at: Date | null;
  sent_at: Date | null;
  delivered_at: Date | null;
  failed_at: Date | null;
  resent_from: string | null;
  /** The effective branding the message was written with: its email's sender name, logo, colours and footer. */
  brand: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

/** A tenant's live sends in one clock hour, counted up to the send cap. */
export interface MessageSendWindowsTable {
  tenant_id: string;
  window_start: Date;
  sent: number;
}

export interface MessagingTables {
  messages: MessagesTable;
  message_send_windows: MessageSendWindowsTable;
}

export type MessageRow = Selectable<MessagesTable>;
