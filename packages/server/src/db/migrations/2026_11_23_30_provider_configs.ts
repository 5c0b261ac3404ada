import { type Kysely, sql } from 'kysely';

/**
 * A tenant's own video accounts (provider configurations), the Streams settings that choose the network of
 * new live-mode objects, and the inbound provider notifications already taken (deduplication).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('provider_configs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull())
    .addColumn('signing_key_id', 'text', (c) => c.notNull())
    // SecretBox ciphertext of the JSON of every secret, bound to the configuration's id.
    .addColumn('secrets_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('provider_configs_scope_id').on('provider_configs').columns(['tenant_id', 'livemode', 'id']).execute();

  await db.schema
    .createTable('stream_settings')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('live_network', 'text', (c) => c.notNull())
    .addColumn('provider_config_id', 'text', (c) => c.references('provider_configs.id'))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('stream_settings_pk', ['tenant_id', 'livemode'])
    .execute();

  await db.schema
    .createTable('provider_notifications')
    .addColumn('provider_config_id', 'text', (c) => c.notNull().references('provider_configs.id').onDelete('cascade'))
    .addColumn('notification_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('provider_notifications_pk', ['provider_config_id', 'notification_id'])
    .execute();

  // Notifications name objects by the provider's id.
  await db.schema.createIndex('live_streams_provider_ref').on('live_streams').columns(['provider', 'provider_ref']).execute();
  await db.schema.createIndex('assets_provider_asset_id').on('assets').columns(['provider', 'provider_asset_id']).execute();
  await db.schema.createIndex('uploads_provider_upload_id').on('uploads').columns(['provider', 'provider_upload_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('uploads_provider_upload_id').execute();
  await db.schema.dropIndex('assets_provider_asset_id').execute();
  await db.schema.dropIndex('live_streams_provider_ref').execute();
  await db.schema.dropTable('provider_notifications').execute();
  await db.schema.dropTable('stream_settings').execute();
  await db.schema.dropTable('provider_configs').execute();
}
