import { type Kysely, sql } from 'kysely';

/**
 * Promoters: people and organizations who sell an organization's events and products for a commission; their
 * assignments (commission rules), tracking codes and clicks; the settings per environment; the commission
 * ledger, payouts, and one sale row per attributed paid order (the reports' source). Orders gain the
 * attribution fixed when they are made, and coupons the promoter they bind.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('promoters')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('customer_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index promoters_external_id on promoters (tenant_id, livemode, external_id) where external_id is not null`.execute(db);
  await sql`create index promoters_scope_org on promoters (tenant_id, livemode, organization_id, id)`.execute(db);
  await sql`create index promoters_customer on promoters (tenant_id, livemode, customer_id) where customer_id is not null`.execute(db);

  await db.schema
    .createTable('promoter_assignments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('promoter_id', 'text', (c) => c.notNull().references('promoters.id'))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('ticket_type_ids', sql`text[]`)
    .addColumn('commission_type', 'text', (c) => c.notNull())
    .addColumn('basis_points', 'integer')
    .addColumn('amount', 'integer')
    .addColumn('max_per_order', 'integer')
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One active assignment per promoter and target.
  await sql`create unique index promoter_assignments_active_target on promoter_assignments (promoter_id, target_type, target_id) where active`.execute(db);

  await db.schema
    .createTable('tracking_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('promoter_id', 'text', (c) => c.notNull().references('promoters.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('orders', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Codes are unique without case: booking looks them up by `lower(code)`.
  await sql`create unique index tracking_codes_scope_code on tracking_codes (tenant_id, livemode, lower(code))`.execute(db);
  await sql`create index tracking_codes_promoter on tracking_codes (promoter_id, id)`.execute(db);

  // One click per visitor, code and day.
  await db.schema
    .createTable('tracking_code_clicks')
    .addColumn('tracking_code_id', 'text', (c) => c.notNull())
    .addColumn('visitor', 'text', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addPrimaryKeyConstraint('tracking_code_clicks_pk', ['tracking_code_id', 'day', 'visitor'])
    .execute();

  await db.schema
    .createTable('promoter_settings')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('attribution_window_days', 'integer', (c) => c.notNull().defaultTo(30))
    .addColumn('refund_window_days', 'integer', (c) => c.notNull().defaultTo(7))
    .addColumn('link_template', 'text')
    .addColumn('self_referral', 'text', (c) => c.notNull().defaultTo('ignore'))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('promoter_settings_pk', ['tenant_id', 'livemode'])
    .execute();

  await db.schema
    .createTable('payouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('promoter_id', 'text', (c) => c.notNull().references('promoters.id'))
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('phone', 'text')
    .addColumn('provider_config_id', 'text')
    // Daraja's ConversationID once the B2C request was accepted.
    .addColumn('provider_reference', 'text')
    .addColumn('failure_code', 'text')
    .addColumn('failure_message', 'text')
    .addColumn('paid_at', 'timestamptz')
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index payouts_promoter on payouts (tenant_id, livemode, promoter_id, id)`.execute(db);

  await db.schema
    .createTable('commissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('promoter_id', 'text', (c) => c.notNull().references('promoters.id'))
    .addColumn('assignment_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('available_at', 'timestamptz', (c) => c.notNull())
    .addColumn('reverses', 'text')
    .addColumn('payout_id', 'text', (c) => c.references('payouts.id'))
    .addColumn('approved_at', 'timestamptz')
    .addColumn('paid_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One commission entry per order: a repeated payment confirmation writes none.
  await sql`create unique index commissions_order_commission on commissions (order_id) where type = 'commission'`.execute(db);
  await sql`create index commissions_order on commissions (order_id)`.execute(db);
  await sql`create index commissions_promoter on commissions (tenant_id, livemode, promoter_id, status)`.execute(db);
  await sql`create index commissions_due on commissions (available_at) where status = 'pending'`.execute(db);
  await sql`create index commissions_payout on commissions (payout_id) where payout_id is not null`.execute(db);

  // An attributed paid order as the reports count it: covered items, gross and net, the commission computed.
  await db.schema
    .createTable('promoter_sales')
    .addColumn('order_id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('promoter_id', 'text', (c) => c.notNull().references('promoters.id'))
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('tracking_code_id', 'text')
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('items', 'integer', (c) => c.notNull())
    .addColumn('gross', 'integer', (c) => c.notNull())
    .addColumn('net', 'integer', (c) => c.notNull())
    .addColumn('commission', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    // What the promoter's own view shows of the order (never the buyer): kept here as refunds move it.
    .addColumn('order_code', 'text', (c) => c.notNull())
    .addColumn('order_kind', 'text', (c) => c.notNull())
    .addColumn('order_status', 'text', (c) => c.notNull())
    .addColumn('order_created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index promoter_sales_promoter on promoter_sales (tenant_id, livemode, promoter_id, order_id)`.execute(db);
  await sql`create index promoter_sales_org on promoter_sales (tenant_id, livemode, organization_id, order_created_at)`.execute(db);

  await sql`alter table orders add column if not exists attribution jsonb`.execute(db);
  await sql`alter table coupons add column if not exists promoter_id text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table coupons drop column if exists promoter_id`.execute(db);
  await sql`alter table orders drop column if exists attribution`.execute(db);
  for (const t of ['promoter_sales', 'commissions', 'payouts', 'promoter_settings', 'tracking_code_clicks', 'tracking_codes', 'promoter_assignments', 'promoters']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
