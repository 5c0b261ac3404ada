import { type Kysely, sql } from 'kysely';

/**
 * Inbound provider notifications, as the inbox job applies them. A callback token names what kind of operation
 * it was made for (an STK push, a reversal, a B2C payout), so a reversal's result never settles a payment. An
 * inbox row counts its tries and keeps the last error (without secrets) while the provider is down or a row is
 * locked; rows not yet applied are found by a partial index.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table payment_callback_tokens
      add column subject_type text not null default 'payment' check (subject_type in ('payment', 'refund', 'payout'))`.execute(db);
  await sql`create index payment_callback_tokens_subject on payment_callback_tokens (subject_id)`.execute(db);
  await sql`
    alter table payment_notifications
      add column subject_id text,
      add column attempts integer not null default 0,
      add column last_error text`.execute(db);
  await sql`create index payment_notifications_unapplied on payment_notifications (received_at) where applied_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index payment_notifications_unapplied`.execute(db);
  await sql`alter table payment_notifications drop column subject_id, drop column attempts, drop column last_error`.execute(db);
  await sql`drop index payment_callback_tokens_subject`.execute(db);
  await sql`alter table payment_callback_tokens drop column subject_type`.execute(db);
}
