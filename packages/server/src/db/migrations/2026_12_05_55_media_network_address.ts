import { sql, type Kysely } from 'kysely';

/**
 * The public address of the process running the media network, recorded when it starts: API processes on other
 * machines send players there (its playback routes, or any API process when the HLS is in a bucket).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('media_network_address')
    .addColumn('id', 'smallint', (c) => c.primaryKey().defaultTo(1).check(sql`id = 1`))
    .addColumn('public_base_url', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('media_network_address').execute();
}
