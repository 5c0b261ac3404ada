import { type Kysely, sql } from 'kysely';

/**
 * A heartbeat moves `last_heartbeat_at` and `expires_at` and nothing else. With `expires_at` indexed (for the
 * missed-heartbeat sweep), every heartbeat wrote a new entry into each of the table's four indexes and left the
 * old ones for vacuum: on a live show the indexes grew by one entry per session per heartbeat. Without an index
 * on either column the update is heap-only (HOT): the new row version goes into the same page, no index is
 * touched, and the page prunes its old versions itself. The free space per page (fillfactor 80) is what keeps
 * the new version on the old row's page.
 *
 * The sweep, once a minute, now finds lapsed sessions among the active ones through the partial index on active
 * sessions (`access_sessions_entitlement_active`): it reads every active session, which is as many rows as
 * there are viewers at that moment, not the table's history.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index access_sessions_active_expires_at`.execute(db);
  await sql`alter table access_sessions set (fillfactor = 80)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table access_sessions reset (fillfactor)`.execute(db);
  await db.schema
    .createIndex('access_sessions_active_expires_at')
    .on('access_sessions')
    .column('expires_at')
    .where(sql<boolean>`state = 'active'`)
    .execute();
}
