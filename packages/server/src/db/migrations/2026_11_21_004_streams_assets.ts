import { type Kysely, sql } from 'kysely';

/** Assets, uploads, clips and moments of Streams. Live-stream ids are plain text: a deleted stream's recordings outlive it. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('assets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('preparing', 'ready', 'errored')`))
    .addColumn('error', 'text')
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('upload', 'url', 'clip', 'recording')`))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_asset_id', 'text')
    .addColumn('source_url', 'text')
    .addColumn('duration', 'double precision')
    .addColumn('audio_only', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('playback_policy', 'text', (c) => c.notNull().check(sql`playback_policy in ('signed', 'public')`))
    .addColumn('generated_subtitles', 'text')
    .addColumn('live_stream_id', 'text')
    .addColumn('recording_started_at', 'timestamptz')
    .addColumn('recording_ended_at', 'timestamptz')
    .addColumn('clip_id', 'text')
    .addColumn('upload_id', 'text')
    .addColumn('external_id', 'text')
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('assets_scope_id').on('assets').columns(['tenant_id', 'livemode', 'id']).execute();
  await db.schema.createIndex('assets_metadata').on('assets').using('gin').column('metadata').execute();
  await db.schema
    .createIndex('assets_external_id')
    .on('assets')
    .columns(['tenant_id', 'livemode', 'external_id'])
    .unique()
    // A deleted asset gives its external_id back.
    .where(sql<boolean>`external_id is not null and deleted_at is null`)
    .execute();
  await db.schema
    .createIndex('assets_recordings')
    .on('assets')
    .columns(['tenant_id', 'livemode', 'live_stream_id', 'recording_started_at'])
    .where(sql.ref('source'), '=', 'recording')
    .execute();
  // One open recording per stream: a reconnect inside the window continues it.
  await db.schema
    .createIndex('assets_open_recording')
    .on('assets')
    .column('live_stream_id')
    .unique()
    .where(sql<boolean>`source = 'recording' and recording_ended_at is null and deleted_at is null`)
    .execute();

  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('waiting', 'asset_created')`))
    .addColumn('cors_origin', 'text')
    .addColumn('url_sealed', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_upload_id', 'text')
    .addColumn('asset_id', 'text')
    .addColumn('playback_policy', 'text', (c) => c.notNull())
    .addColumn('asset_metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('max_bytes', 'bigint', (c) => c.notNull())
    .addColumn('received_bytes', 'bigint')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('clips')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id'))
    .addColumn('source_asset_id', 'text', (c) => c.notNull().references('assets.id'))
    .addColumn('start_time', 'double precision', (c) => c.notNull())
    .addColumn('end_time', 'double precision', (c) => c.notNull())
    .addColumn('moment_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('moments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('live_stream_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('customer', 'text')
    .addColumn('clip_before_s', 'double precision')
    .addColumn('clip_after_s', 'double precision')
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .addColumn('clip_status', 'text', (c) => c.check(sql`clip_status in ('pending', 'ready', 'failed')`))
    .addColumn('clip_error', 'text')
    .addColumn('clip_asset_id', 'text')
    .addColumn('clip_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('clip_next_attempt_at', 'timestamptz')
    .addColumn('recording_asset_id', 'text')
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('moments_stream_time')
    .on('moments')
    .columns(['tenant_id', 'livemode', 'live_stream_id', 'occurred_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('moments').execute();
  await db.schema.dropTable('clips').execute();
  await db.schema.dropTable('uploads').execute();
  await db.schema.dropTable('assets').execute();
}
