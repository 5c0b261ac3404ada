import { type Kysely, sql } from 'kysely';

/**
 * M-Pesa payouts: `sent_at` marks the one B2C request a payout may make (a retried job never sends twice);
 * `next_check_at` is when a payout still without a result is asked about with Transaction Status.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payouts').addColumn('sent_at', 'timestamptz').addColumn('next_check_at', 'timestamptz').execute();
  await sql`create index payouts_next_check on payouts (next_check_at) where status = 'pending' and next_check_at is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists payouts_next_check`.execute(db);
  await db.schema.alterTable('payouts').dropColumn('next_check_at').dropColumn('sent_at').execute();
}
