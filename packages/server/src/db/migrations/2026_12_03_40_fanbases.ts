import { type Kysely, sql } from 'kysely';

/**
 * Fanbases: an organization's community (one per organization), its membership tiers, the memberships of
 * customers, and the subscriptions to paid tiers with their periods and renewal state.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('fanbases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('grace_period_days', 'integer', (c) => c.notNull())
    .addColumn('renewal_notice_hours', 'integer', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One fanbase per organization: the index answers `fanbase_exists` to two creations at once.
  await sql`create unique index fanbases_organization on fanbases (tenant_id, livemode, organization_id)`.execute(db);
  await sql`create unique index fanbases_external_id on fanbases (tenant_id, livemode, external_id) where external_id is not null`.execute(db);
  await sql`create index fanbases_metadata on fanbases using gin (metadata jsonb_path_ops)`.execute(db);

  await db.schema
    .createTable('membership_tiers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('fanbase_id', 'text', (c) => c.notNull().references('fanbases.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('interval', 'text')
    .addColumn('benefits', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('grants', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('limits', 'jsonb')
    .addColumn('max_members', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    // Set by the first subscription: from then on the interval is fixed.
    .addColumn('subscribed_at', 'timestamptz')
    .addColumn('external_id', 'text')
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index membership_tiers_fanbase on membership_tiers (fanbase_id, position, id)`.execute(db);
  // At most one published free tier per fanbase, even for two publications at once.
  await sql`create unique index membership_tiers_published_free on membership_tiers (fanbase_id) where price = 0 and status = 'published'`.execute(db);
  await sql`create unique index membership_tiers_external_id on membership_tiers (tenant_id, livemode, external_id) where external_id is not null`.execute(db);

  await db.schema
    .createTable('fanbase_memberships')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('fanbase_id', 'text', (c) => c.notNull().references('fanbases.id'))
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('customer', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    // The tier it holds now (the live subscription's, else the comp's, else the published free tier), kept by the service.
    .addColumn('tier_id', 'text')
    // The comp's tier (source `comp`).
    .addColumn('comp_tier_id', 'text')
    // The latest subscription; the API shows it while it is live.
    .addColumn('subscription_id', 'text')
    .addColumn('ends_at', 'timestamptz')
    .addColumn('joined_at', 'timestamptz', (c) => c.notNull())
    .addColumn('left_at', 'timestamptz')
    .addColumn('external_id', 'text')
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One membership per fanbase and customer: joining again reactivates it.
  await sql`create unique index fanbase_memberships_customer on fanbase_memberships (fanbase_id, customer)`.execute(db);
  await sql`create index fanbase_memberships_fanbase on fanbase_memberships (fanbase_id, status, id)`.execute(db);
  await sql`create index fanbase_memberships_organization on fanbase_memberships (organization_id, customer) where status = 'active'`.execute(db);
  await sql`create index fanbase_memberships_of_customer on fanbase_memberships (tenant_id, livemode, customer)`.execute(db);
  await sql`create unique index fanbase_memberships_external_id on fanbase_memberships (tenant_id, livemode, external_id) where external_id is not null`.execute(db);

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('fanbase_id', 'text', (c) => c.notNull().references('fanbases.id'))
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('tier_id', 'text', (c) => c.notNull())
    .addColumn('customer', 'text', (c) => c.notNull())
    .addColumn('membership_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('interval', 'text', (c) => c.notNull())
    .addColumn('current_period_start', 'timestamptz')
    .addColumn('current_period_end', 'timestamptz')
    .addColumn('cancel_at_period_end', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('pending_tier_id', 'text')
    .addColumn('renewal_mode', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('latest_order_id', 'text')
    .addColumn('grace_ends_at', 'timestamptz')
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('ended_at', 'timestamptz')
    .addColumn('cancellation_reason', 'text')
    .addColumn('external_id', 'text')
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One live subscription per fanbase and customer: two subscribes at once make one (`already_subscribed`).
  await sql`create unique index subscriptions_live on subscriptions (fanbase_id, customer) where status in ('incomplete', 'active', 'past_due')`.execute(db);
  await sql`create index subscriptions_scope on subscriptions (tenant_id, livemode, id)`.execute(db);
  await sql`create index subscriptions_fanbase on subscriptions (fanbase_id, status)`.execute(db);
  // The renewal job's question: which live subscriptions need work now.
  await sql`create index subscriptions_due on subscriptions (next_attempt_at) where next_attempt_at is not null and status in ('active', 'past_due')`.execute(db);
  await sql`create unique index subscriptions_external_id on subscriptions (tenant_id, livemode, external_id) where external_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('subscriptions').execute();
  await db.schema.dropTable('fanbase_memberships').execute();
  await db.schema.dropTable('membership_tiers').execute();
  await db.schema.dropTable('fanbases').execute();
}
