import { type Kysely, sql } from 'kysely';

/**
 * Preparing media-network assets are found again after a crash. (The nginx callbacks find a live input by
 * `provider_ref` through `live_streams_provider_ref`, which the provider-configurations migration makes.)
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('assets_preparing_provider')
    .on('assets')
    .column('provider')
    .where(sql.ref('status'), '=', 'preparing')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('assets_preparing_provider').execute();
}
