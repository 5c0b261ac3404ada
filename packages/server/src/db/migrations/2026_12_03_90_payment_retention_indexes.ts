import { type Kysely, sql } from 'kysely';

/** The payments retention job picks applied notifications and old callback tokens by their time. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index payment_notifications_applied_received on payment_notifications (received_at) where applied_at is not null`.execute(db);
  await sql`create index payment_callback_tokens_created on payment_callback_tokens (created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists payment_callback_tokens_created`.execute(db);
  await sql`drop index if exists payment_notifications_applied_received`.execute(db);
}
