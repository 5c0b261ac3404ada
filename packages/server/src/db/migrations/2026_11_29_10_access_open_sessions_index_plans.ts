import { type Kysely, sql } from 'kysely';

/**
 * `access_open_sessions` reads an entitlement's sessions through their indexes, whatever the table held when a
 * connection first planned the function. PL/pgSQL keeps each statement's plan for the connection's life; one made
 * after statistics were gathered on a table of a page or two scans the whole table, which is cheaper there, and it
 * stays as the table grows until statistics are gathered again: each open then read every session ever opened,
 * four times. On a new database whose tables were analyzed while small (the bench's, without autovacuum), opens of
 * new devices ran at 0.20–0.36× the write ceiling with PostgreSQL at 73–109 % of a core, against 0.49× and 45 %
 * with this. Each statement looks up one entitlement's rows, which the indexes on `entitlement_id` serve at any size.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter function access_open_sessions(jsonb) set enable_seqscan = off`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter function access_open_sessions(jsonb) reset enable_seqscan`.execute(db);
}
