import { type Kysely, sql } from 'kysely';

/**
 * Messaging: the outbox's statuses widen to the whole delivery life (`sending`, `delivered`, `cancelled`), and
 * each message keeps its attempts, its retry time, its provider's id and when it was sent, delivered or failed.
 * `message_send_windows` counts each tenant's live sends per clock hour, for the send cap.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table messages drop constraint messages_status_check`.execute(db);
  await sql`
    alter table messages
      add constraint messages_status_check
        check (status in ('queued', 'sending', 'sent', 'delivered', 'failed', 'captured', 'cancelled')),
      add column params jsonb not null default '{}'::jsonb,
      add column attempts integer not null default 0,
      add column next_attempt_at timestamptz,
      add column job_queued_at timestamptz,
      add column lease_until timestamptz,
      add column provider text,
      add column provider_id text,
      add column expires_at timestamptz,
      add column sent_at timestamptz,
      add column delivered_at timestamptz,
      add column failed_at timestamptz,
      add column resent_from text`.execute(db);
  // Receipts find their message by the provider's id.
  await sql`create unique index messages_provider_id on messages (provider, provider_id) where provider_id is not null`.execute(db);
  // The scheduler's work: retries waiting for their time, jobs lost, sends cut short by a crash.
  await sql`create index messages_open on messages (next_attempt_at) where status in ('queued', 'sending')`.execute(db);
  await sql`
    create table message_send_windows (
      tenant_id text not null references tenants(id),
      window_start timestamptz not null,
      sent integer not null,
      primary key (tenant_id, window_start)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table message_send_windows`.execute(db);
  await sql`drop index messages_open`.execute(db);
  await sql`drop index messages_provider_id`.execute(db);
  await sql`update messages set status = 'failed' where status not in ('captured', 'queued', 'sent', 'failed')`.execute(db);
  await sql`
    alter table messages
      drop constraint messages_status_check,
      add constraint messages_status_check check (status in ('captured', 'queued', 'sent', 'failed')),
      drop column params, drop column attempts, drop column next_attempt_at, drop column job_queued_at,
      drop column lease_until, drop column provider, drop column provider_id, drop column expires_at,
      drop column sent_at, drop column delivered_at, drop column failed_at, drop column resent_from`.execute(db);
}
