import { type Kysely, sql } from 'kysely';

/**
 * The request log: one row per API request made with a tenant's key or a member's token, listed newest first
 * per environment and searched by status and path. Rows past the operator's retention are deleted hourly.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('request_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('api_key_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index request_logs_list on request_logs (tenant_id, livemode, created_at desc, id desc)`.execute(db);
  await sql`create index request_logs_created on request_logs (created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('request_logs').execute();
}
