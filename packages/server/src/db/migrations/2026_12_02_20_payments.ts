import { type Kysely, sql } from 'kysely';

/**
 * Payments as a product: tenants' provider configurations (secrets sealed), which of them serve checkouts, the
 * inbox of provider notifications, per-operation callback tokens (stored hashed), and the fields payments and
 * refunds gain to follow an attempt at a provider. `(provider_config_id, provider_reference)` and
 * `(provider_config_id, provider_receipt)` are unique, so a repeated notice can never make a second payment.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table payment_provider_configs (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      type text not null check (type in ('mpesa', 'paystack', 'stripe')),
      name text not null,
      organization_id text references organizations(id),
      account jsonb not null default '{}',
      secret_fields text[] not null default '{}',
      secrets_sealed text not null,
      status text not null default 'active' check (status in ('active', 'failing')),
      last_error jsonb,
      verified_at timestamptz,
      external_id text,
      metadata jsonb not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index payment_provider_configs_scope on payment_provider_configs (tenant_id, livemode, id)`.execute(db);
  await sql`create unique index payment_provider_configs_external on payment_provider_configs (tenant_id, livemode, external_id) where external_id is not null`.execute(db);

  await sql`
    create table payment_settings (
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      provider_configs text[] not null default '{}',
      late_payment_policy text not null default 'accept_if_available' check (late_payment_policy in ('accept_if_available', 'refund')),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, livemode)
    )`.execute(db);

  await sql`
    create table organization_payment_settings (
      organization_id text primary key references organizations(id),
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      provider_configs text[],
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`alter table payments drop constraint payments_status_check`.execute(db);
  await sql`alter table payments add constraint payments_status_check check (status in ('pending', 'succeeded', 'failed', 'cancelled'))`.execute(db);
  await sql`
    alter table payments
      add column provider text check (provider in ('simulated', 'mpesa', 'paystack', 'stripe')),
      add column provider_config_id text references payment_provider_configs(id),
      add column provider_reference text,
      add column provider_receipt text,
      add column failure_message text,
      add column late boolean not null default false,
      add column next_action jsonb,
      add column next_check_at timestamptz,
      add column checks integer not null default 0,
      add column organization_id text,
      add column customer_id text,
      add column amount_refunded integer not null default 0,
      add column metadata jsonb not null default '{}',
      add column updated_at timestamptz not null default now()`.execute(db);
  await sql`update payments set provider = 'simulated' where method <> 'comp'`.execute(db);
  await sql`update payments p set organization_id = o.organization_id, customer_id = o.customer_id, updated_at = coalesce(p.settled_at, p.created_at) from orders o where o.id = p.order_id`.execute(db);
  await sql`create unique index payments_provider_reference on payments (provider_config_id, provider_reference) where provider_config_id is not null and provider_reference is not null`.execute(db);
  await sql`create unique index payments_provider_receipt on payments (provider_config_id, provider_receipt) where provider_config_id is not null and provider_receipt is not null`.execute(db);
  await sql`create index payments_due on payments (next_check_at) where status = 'pending' and next_check_at is not null`.execute(db);
  await sql`create index payments_scope_id on payments (tenant_id, livemode, id)`.execute(db);

  await sql`
    alter table refunds
      add column payment_id text references payments(id),
      add column source text not null default 'provider' check (source in ('provider', 'manual', 'external')),
      add column provider text,
      add column provider_config_id text references payment_provider_configs(id),
      add column provider_reference text,
      add column failure_message text,
      add column next_check_at timestamptz,
      add column order_counted boolean not null default true,
      add column metadata jsonb not null default '{}',
      add column updated_at timestamptz not null default now()`.execute(db);
  await sql`update refunds set updated_at = coalesce(settled_at, created_at)`.execute(db);
  await sql`create index refunds_scope_id on refunds (tenant_id, livemode, id)`.execute(db);
  await sql`create index refunds_pending on refunds (next_check_at) where status = 'pending' and next_check_at is not null`.execute(db);

  // Money on its way back: counted so that two refunds at once cannot return more than was paid.
  await sql`alter table orders add column amount_refund_pending integer not null default 0`.execute(db);

  await sql`
    create table payment_notifications (
      id bigserial primary key,
      provider_config_id text not null references payment_provider_configs(id),
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      provider_event_id text not null,
      kind text not null,
      reference text,
      hint jsonb,
      provider_receipt text,
      received_at timestamptz not null default now(),
      applied_at timestamptz,
      outcome text,
      unique (provider_config_id, provider_event_id)
    )`.execute(db);

  await sql`
    create table payment_callback_tokens (
      token_hash text primary key,
      provider_config_id text not null references payment_provider_configs(id),
      subject_id text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table payment_callback_tokens, payment_notifications`.execute(db);
  await sql`alter table orders drop column amount_refund_pending`.execute(db);
  await sql`alter table refunds drop column payment_id, drop column source, drop column provider, drop column provider_config_id, drop column provider_reference, drop column failure_message, drop column next_check_at, drop column order_counted, drop column metadata, drop column updated_at`.execute(db);
  await sql`alter table payments drop column provider, drop column provider_config_id, drop column provider_reference, drop column provider_receipt, drop column failure_message, drop column late, drop column next_action, drop column next_check_at, drop column checks, drop column organization_id, drop column customer_id, drop column amount_refunded, drop column metadata, drop column updated_at`.execute(db);
  await sql`alter table payments drop constraint payments_status_check`.execute(db);
  await sql`alter table payments add constraint payments_status_check check (status in ('pending', 'succeeded', 'failed'))`.execute(db);
  await sql`drop table organization_payment_settings, payment_settings, payment_provider_configs`.execute(db);
}
