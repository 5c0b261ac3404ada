import { type Kysely, sql } from 'kysely';

/**
 * Whitelabel: branding of a tenant (one per environment, `organization_id` '') and of its organizations, the
 * custom domains the service answers on, and the brand each outbox message was written with (its email's look).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('brandings')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    // '' for the tenant's own branding, so the key needs no nullable column.
    .addColumn('organization_id', 'text', (c) => c.notNull())
    // The set fields by name (`display_name`, `colors.primary`, `legal.terms_url`, …): absent inherits.
    .addColumn('fields', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('brandings_pk', ['tenant_id', 'livemode', 'organization_id'])
    .execute();

  await db.schema
    .createTable('domains')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('hostname', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text')
    .addColumn('serves', sql`text[]`, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('verification_value', 'text', (c) => c.notNull())
    // What `/.well-known/svc-domain-check` answers on this host, so the check knows the host reaches this deployment.
    .addColumn('check_token', 'text', (c) => c.notNull())
    .addColumn('failure_reason', 'text')
    .addColumn('trusted_origin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('txt_misses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('checks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('verified_at', 'timestamptz')
    .addColumn('activated_at', 'timestamptz')
    .addColumn('failed_at', 'timestamptz')
    .addColumn('last_checked_at', 'timestamptz')
    .addColumn('next_check_at', 'timestamptz')
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('domains_scope_id').on('domains').columns(['tenant_id', 'livemode', 'id']).execute();
  // A hostname is verified or active in one tenant and environment at most: the first to verify wins.
  await sql`create unique index domains_claimed_hostname on domains (hostname) where status in ('verified', 'active')`.execute(db);
  await sql`create unique index domains_scope_hostname on domains (tenant_id, livemode, hostname)`.execute(db);
  await sql`create index domains_next_check on domains (next_check_at) where next_check_at is not null`.execute(db);

  await db.schema.alterTable('messages').addColumn('brand', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('brand').execute();
  await db.schema.dropTable('domains').execute();
  await db.schema.dropTable('brandings').execute();
}
