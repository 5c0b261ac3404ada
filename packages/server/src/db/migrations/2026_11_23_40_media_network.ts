import { type Kysely, sql } from 'kysely';

/**
 * The media network's nginx callbacks name a live input by its ref only (`provider_ref`), across tenants: an
 * index finds the stream at each `on_publish`. Preparing media-network assets are found again after a crash.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // The provider configurations' migration (30) makes the same index; it stays theirs to drop.
  await db.schema.createIndex('live_streams_provider_ref').ifNotExists().on('live_streams').columns(['provider', 'provider_ref']).execute();
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
