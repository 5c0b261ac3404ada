import { type Kysely, sql } from 'kysely';

/**
 * `lease_webhook_slots` counts an endpoint's leased deliveries through the index on `(endpoint_id, leased_until)`,
 * whatever the table held when a connection first planned the function: PL/pgSQL keeps the plan for the
 * connection's life, and one made while `webhook_deliveries` had a page or two scans the whole table, every lease,
 * as the table grows by every delivery made. As `access_open_sessions` (`2026_11_29_10`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter function lease_webhook_slots(text[], text[], integer, integer) set enable_seqscan = off`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter function lease_webhook_slots(text[], text[], integer, integer) reset enable_seqscan`.execute(db);
}
