import { type Kysely, sql } from 'kysely';

/** Live streams, their simulcast targets, playback ids and playback signing keys; the tenant's video settings. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('tenants')
    .addColumn('video_live_network', 'text')
    .addColumn('video_dedicated_environment', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable('live_streams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('idle', 'connecting', 'active', 'disconnected', 'disabled')`),
    )
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_ref', 'text', (c) => c.notNull())
    .addColumn('latency_mode', 'text', (c) => c.notNull().check(sql`latency_mode in ('low', 'standard')`))
    .addColumn('reconnect_window', 'integer', (c) => c.notNull().check(sql`reconnect_window between 0 and 1800`))
    .addColumn('audio_only', 'boolean', (c) => c.notNull())
    .addColumn('playback_policy', 'text', (c) => c.notNull().check(sql`playback_policy in ('signed', 'public')`))
    .addColumn('stream_key_sealed', 'text', (c) => c.notNull())
    .addColumn('srt_passphrase_sealed', 'text')
    .addColumn('ingest', 'jsonb', (c) => c.notNull())
    .addColumn('health', 'jsonb', (c) => c.notNull())
    .addColumn('sequence', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('broadcast_started_at', 'timestamptz')
    .addColumn('disconnected_at', 'timestamptz')
    .addColumn('reconnect_deadline', 'timestamptz')
    .addColumn('external_id', 'text')
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('live_streams_scope_id').on('live_streams').columns(['tenant_id', 'livemode', 'id']).execute();
  await db.schema
    .createIndex('live_streams_external_id')
    .on('live_streams')
    .columns(['tenant_id', 'livemode', 'external_id'])
    .unique()
    .where(sql<boolean>`external_id is not null and deleted_at is null`)
    .execute();
  await db.schema.createIndex('live_streams_metadata').on('live_streams').using('gin').column('metadata').execute();
  // The reconnect-window sweep looks only at disconnected streams.
  await db.schema
    .createIndex('live_streams_reconnect_deadline')
    .on('live_streams')
    .column('reconnect_deadline')
    .where(sql<boolean>`status = 'disconnected' and deleted_at is null`)
    .execute();

  await db.schema
    .createTable('simulcast_targets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('live_stream_id', 'text', (c) => c.notNull().references('live_streams.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('stream_key_sealed', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'errored')`))
    .addColumn('error', 'text')
    .addColumn('provider_ref', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('simulcast_targets_stream')
    .on('simulcast_targets')
    .columns(['tenant_id', 'livemode', 'live_stream_id'])
    .execute();

  await db.schema
    .createTable('playback_ids')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('live_stream_id', 'text', (c) => c.references('live_streams.id'))
    // No foreign key: assets arrive in a later migration, which may add it.
    .addColumn('asset_id', 'text')
    .addColumn('policy', 'text', (c) => c.notNull().check(sql`policy in ('signed', 'public')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('playback_ids_one_resource', sql`(live_stream_id is null) <> (asset_id is null)`)
    .execute();
  await db.schema.createIndex('playback_ids_live_stream').on('playback_ids').column('live_stream_id').execute();
  await db.schema.createIndex('playback_ids_asset').on('playback_ids').column('asset_id').execute();

  await db.schema
    .createTable('playback_signing_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('tenant', 'system')`))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_ref', 'text', (c) => c.notNull())
    .addColumn('public_key_pem', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    // Only the service's own key keeps its private half (sealed); a tenant's key is handed out once.
    .addColumn('private_key_sealed', 'text')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('playback_signing_keys_private', sql`(kind = 'system') = (private_key_sealed is not null)`)
    .execute();
  await db.schema
    .createIndex('playback_signing_keys_scope_id')
    .on('playback_signing_keys')
    .columns(['tenant_id', 'livemode', 'kind', 'id'])
    .execute();
  await db.schema
    .createIndex('playback_signing_keys_one_system')
    .on('playback_signing_keys')
    .columns(['tenant_id', 'livemode', 'provider'])
    .unique()
    .where(sql<boolean>`kind = 'system' and revoked_at is null`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('playback_signing_keys').execute();
  await db.schema.dropTable('playback_ids').execute();
  await db.schema.dropTable('simulcast_targets').execute();
  await db.schema.dropTable('live_streams').execute();
  await db.schema.alterTable('tenants').dropColumn('video_dedicated_environment').dropColumn('video_live_network').execute();
}
