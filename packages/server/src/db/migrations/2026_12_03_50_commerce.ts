import { type Kysely, sql } from 'kysely';

/**
 * Commerce: products of an organization with their variants, and each organization's commerce settings. A
 * variant's `reserved` counts the units pending orders hold and `sold` the units paid for, net of restocks; the
 * checks keep `reserved` within `stock`, so no writer can oversell even by mistake. SKUs are unique per tenant and
 * environment without case.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table products (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      organization_id text not null,
      name text not null,
      description text,
      kind text not null check (kind in ('physical', 'digital')),
      status text not null check (status in ('draft', 'published', 'archived')),
      currency text not null,
      images jsonb not null default '[]'::jsonb,
      grants jsonb not null default '[]'::jsonb,
      grant_duration_days integer,
      grant_limits jsonb,
      max_per_order integer not null default 10,
      published_at timestamptz,
      external_id text,
      metadata jsonb not null default '{}'::jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index products_scope_id on products (tenant_id, livemode, id)`.execute(db);
  await sql`create index products_published on products (tenant_id, livemode, organization_id, published_at desc, id desc) where status = 'published'`.execute(db);
  await sql`create unique index products_external_id on products (tenant_id, livemode, external_id) where external_id is not null`.execute(db);

  await sql`
    create table product_variants (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      product_id text not null references products(id),
      name text not null,
      sku text not null,
      options jsonb not null default '{}'::jsonb,
      price integer not null check (price >= 0),
      stock integer check (stock >= 0),
      reserved integer not null default 0 check (reserved >= 0),
      sold integer not null default 0 check (sold >= 0),
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint product_variants_reserved_in_stock check (stock is null or reserved <= stock)
    )`.execute(db);
  await sql`create index product_variants_product on product_variants (product_id, id)`.execute(db);
  await sql`create unique index product_variants_sku on product_variants (tenant_id, livemode, lower(sku))`.execute(db);

  await sql`
    create table commerce_settings (
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      organization_id text not null,
      hold_minutes integer not null default 15,
      shipping_fee integer not null default 0,
      pickup_enabled boolean not null default false,
      pickup_instructions text,
      updated_at timestamptz not null default now(),
      primary key (tenant_id, livemode, organization_id)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table commerce_settings`.execute(db);
  await sql`drop table product_variants`.execute(db);
  await sql`drop table products`.execute(db);
}
