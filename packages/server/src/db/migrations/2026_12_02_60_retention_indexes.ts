import { type Kysely, sql } from 'kysely';

/** The retention jobs pick old rows by their time: without these, each hourly run reads the whole table. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index provider_notifications_received on provider_notifications (received_at)`.execute(db);
  await sql`create index event_page_views_viewed on event_page_views (viewed_at)`.execute(db);
  await sql`create index event_day_visitors_day on event_day_visitors (day)`.execute(db);
  // Only the messages whose text is still kept: the index empties as the job runs.
  await sql`create index messages_body_kept on messages (created_at) where body <> ''`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['messages_body_kept', 'event_day_visitors_day', 'event_page_views_viewed', 'provider_notifications_received']) {
    await sql`drop index if exists ${sql.id(index)}`.execute(db);
  }
}
