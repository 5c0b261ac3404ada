import { type Kysely, sql } from 'kysely';

/**
 * Events and ticketing: the organizer's catalogue (events, ticket types, slots, coupons), capacity buckets,
 * orders with their tickets, checkout sessions, payments, refunds, and the public page views of events.
 * Amounts are integers in the currency's minor unit. Catalogue ids are uuids (the spec's); orders, tickets,
 * payments, refunds and checkout sessions carry prefixed ids.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table ticketed_events (
      id uuid primary key default gen_random_uuid(),
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      organization_id text not null references organizations(id),
      name text not null,
      slug text not null,
      description text,
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      timezone text not null,
      venue jsonb,
      capacity integer check (capacity is null or capacity >= 0),
      currency text not null,
      requires_approval boolean not null default false,
      hold_minutes integer not null default 15 check (hold_minutes between 1 and 1440),
      live_stream_id text,
      status text not null default 'draft' check (status in ('draft', 'published', 'cancelled', 'completed')),
      published_at timestamptz,
      cancelled_at timestamptz,
      metadata jsonb not null default '{}'::jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (ends_at > starts_at)
    )`.execute(db);
  await sql`create unique index ticketed_events_slug on ticketed_events (tenant_id, livemode, slug)`.execute(db);
  await sql`create index ticketed_events_public on ticketed_events (tenant_id, livemode, starts_at, id) where status = 'published'`.execute(db);
  await sql`create index ticketed_events_organization on ticketed_events (organization_id, created_at)`.execute(db);

  await sql`
    create table ticket_types (
      id uuid primary key default gen_random_uuid(),
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      event_id uuid not null references ticketed_events(id),
      name text not null,
      description text,
      pricing_mode text not null check (pricing_mode in ('fixed', 'name_your_price')),
      price integer check (price is null or price >= 0),
      flexipay_min_price integer check (flexipay_min_price is null or flexipay_min_price >= 0),
      flexipay_max_price integer check (flexipay_max_price is null or flexipay_max_price >= 0),
      quantity integer check (quantity is null or quantity >= 0),
      min_per_order integer not null default 1 check (min_per_order >= 1),
      max_per_order integer not null default 10 check (max_per_order >= min_per_order),
      sale_starts_at timestamptz,
      sale_ends_at timestamptz,
      allow_pay_later boolean not null default false,
      requires_approval boolean not null default false,
      admits integer not null default 1 check (admits between 1 and 100),
      extra_fields jsonb not null default '[]'::jsonb,
      stream_limits jsonb,
      status text not null default 'active' check (status in ('active', 'paused')),
      position integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index ticket_types_event on ticket_types (event_id, position, created_at)`.execute(db);

  await sql`
    create table event_slots (
      id uuid primary key default gen_random_uuid(),
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      event_id uuid not null references ticketed_events(id),
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      capacity integer check (capacity is null or capacity >= 0),
      created_at timestamptz not null default now(),
      check (ends_at > starts_at)
    )`.execute(db);
  await sql`create index event_slots_event on event_slots (event_id, starts_at)`.execute(db);

  await sql`
    create table coupons (
      id uuid primary key default gen_random_uuid(),
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      event_id uuid not null references ticketed_events(id),
      code text not null,
      discount_type text not null check (discount_type in ('percent', 'fixed')),
      value integer not null check (value > 0),
      ticket_type_ids uuid[],
      max_uses integer check (max_uses is null or max_uses >= 0),
      uses_held integer not null default 0 check (uses_held >= 0),
      uses_redeemed integer not null default 0 check (uses_redeemed >= 0),
      valid_from timestamptz,
      valid_until timestamptz,
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (max_uses is null or uses_held + uses_redeemed <= max_uses)
    )`.execute(db);
  await sql`create unique index coupons_code on coupons (event_id, lower(code))`.execute(db);

  // One row per limit that applies to a booking: the event, a slot, a ticket type, a ticket type within a slot.
  // A booking takes seats from each with one conditional update; the check keeps them from ever overselling.
  await sql`
    create table capacity_buckets (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      event_id uuid not null references ticketed_events(id),
      slot_id uuid references event_slots(id),
      ticket_type_id uuid references ticket_types(id),
      capacity integer check (capacity is null or capacity >= 0),
      held integer not null default 0 check (held >= 0),
      sold integer not null default 0 check (sold >= 0),
      check (capacity is null or held + sold <= capacity)
    )`.execute(db);
  await sql`create index capacity_buckets_event on capacity_buckets (event_id)`.execute(db);

  await sql`
    create table orders (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      code text not null,
      status text not null check (status in ('pending', 'paid', 'expired', 'cancelled', 'refunded', 'partially_refunded')),
      organization_id text not null references organizations(id),
      event_id uuid not null references ticketed_events(id),
      ticket_type_id uuid not null references ticket_types(id),
      slot_id uuid references event_slots(id),
      quantity integer not null check (quantity >= 1),
      seats integer not null check (seats >= 0),
      bucket_ids text[] not null default '{}',
      seats_state text not null default 'held' check (seats_state in ('held', 'sold', 'released')),
      coupon_id uuid references coupons(id),
      coupon_state text check (coupon_state in ('held', 'redeemed', 'released')),
      amount_total integer not null check (amount_total >= 0),
      amount_discount integer not null default 0 check (amount_discount >= 0),
      amount_paid integer not null default 0 check (amount_paid >= 0),
      amount_refunded integer not null default 0 check (amount_refunded >= 0),
      currency text not null,
      buyer_name text,
      buyer_email text,
      buyer_phone text,
      customer_id text references customers(id),
      redirect_url text,
      pay_later boolean not null default false,
      comp boolean not null default false,
      external_id text,
      metadata jsonb not null default '{}'::jsonb,
      expires_at timestamptz,
      paid_at timestamptz,
      cancelled_at timestamptz,
      expired_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (amount_refunded <= amount_paid)
    )`.execute(db);
  await sql`create unique index orders_code on orders (tenant_id, livemode, code)`.execute(db);
  await sql`create unique index orders_external_id on orders (tenant_id, livemode, external_id) where external_id is not null`.execute(db);
  await sql`create index orders_scope_id on orders (tenant_id, livemode, id)`.execute(db);
  await sql`create index orders_event on orders (event_id, status)`.execute(db);
  await sql`create index orders_customer on orders (customer_id) where customer_id is not null`.execute(db);
  await sql`create index orders_pending_expiry on orders (expires_at) where status = 'pending'`.execute(db);

  // One ticket per attendee. The scanning secret is kept twice: a hash to find it, sealed to show it to its holder.
  await sql`
    create table tickets (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      order_id text not null references orders(id),
      event_id uuid not null references ticketed_events(id),
      ticket_type_id uuid not null references ticket_types(id),
      slot_id uuid references event_slots(id),
      position integer not null,
      first_name text,
      last_name text,
      email text,
      phone text,
      extra_data jsonb not null default '{}'::jsonb,
      customer_id text references customers(id),
      secret_hash text not null,
      secret_sealed text not null,
      status text not null check (status in ('pending_payment', 'valid', 'void')),
      review_status text check (review_status in ('pending', 'approved', 'rejected')),
      entitlement_id text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index tickets_secret on tickets (tenant_id, livemode, secret_hash)`.execute(db);
  await sql`create index tickets_order on tickets (order_id, position)`.execute(db);
  await sql`create index tickets_event on tickets (event_id, id)`.execute(db);
  await sql`create index tickets_customer on tickets (customer_id) where customer_id is not null`.execute(db);

  await sql`
    create table checkout_sessions (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      order_id text not null references orders(id),
      amount integer not null check (amount >= 0),
      currency text not null,
      status text not null default 'open' check (status in ('open', 'complete', 'expired')),
      redirect_url text,
      expires_at timestamptz not null,
      completed_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index checkout_sessions_order on checkout_sessions (order_id)`.execute(db);

  await sql`
    create table payments (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      order_id text not null references orders(id),
      checkout_session_id text references checkout_sessions(id),
      method text not null check (method in ('mobile_money', 'card', 'comp')),
      amount integer not null check (amount >= 0),
      currency text not null,
      status text not null check (status in ('pending', 'succeeded', 'failed')),
      failure_code text,
      payer_hint text,
      created_at timestamptz not null default now(),
      settled_at timestamptz
    )`.execute(db);
  await sql`create index payments_order on payments (order_id, created_at)`.execute(db);
  await sql`create index payments_pending on payments (created_at) where status = 'pending'`.execute(db);

  await sql`
    create table refunds (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      order_id text not null references orders(id),
      amount integer not null check (amount > 0),
      currency text not null,
      reason text,
      status text not null check (status in ('pending', 'succeeded', 'failed')),
      failure_code text,
      created_at timestamptz not null default now(),
      settled_at timestamptz
    )`.execute(db);
  await sql`create index refunds_order on refunds (order_id, created_at)`.execute(db);

  // A visitor is a keyed hash of address and user agent; the raw address is never stored.
  await sql`
    create table event_page_views (
      id bigserial primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      organization_id text not null references organizations(id),
      event_id uuid not null references ticketed_events(id),
      visitor_hash text not null,
      viewed_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index event_page_views_visitor on event_page_views (event_id, visitor_hash, viewed_at desc)`.execute(db);
  await sql`create index event_page_views_organization on event_page_views (organization_id, viewed_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'event_page_views', 'refunds', 'payments', 'checkout_sessions', 'tickets', 'orders', 'capacity_buckets',
    'coupons', 'event_slots', 'ticket_types', 'ticketed_events',
  ]) {
    await sql`drop table ${sql.table(table)}`.execute(db);
  }
}
