import { type Kysely, sql } from 'kysely';

/**
 * Organizer analytics and the activity feed. The analytics read daily rollups, kept by the writes they count
 * (a paid order, a refund, a released sale, a page view) in the same transaction, so a request reads a few rows
 * per event and day instead of scanning orders. Days are in the organization's timezone at the time of the write.
 * Amounts are integers in the currency's minor unit.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // Sales per event, ticket type and day (by `paid_at`); comps are left out.
  await sql`
    create table event_daily_sales (
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      organization_id text not null references organizations(id),
      event_id uuid not null references ticketed_events(id),
      ticket_type_id uuid not null references ticket_types(id),
      day date not null,
      tickets_sold integer not null default 0,
      orders_paid integer not null default 0,
      gross bigint not null default 0,
      refunded bigint not null default 0,
      coupon_orders integer not null default 0,
      coupon_discount bigint not null default 0,
      primary key (event_id, ticket_type_id, day)
    )`.execute(db);
  await sql`create index event_daily_sales_organization on event_daily_sales (organization_id, day)`.execute(db);

  // Page views per event and day; `unique_visitors` counts each visitor once per event and day.
  await sql`
    create table event_daily_views (
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      organization_id text not null references organizations(id),
      event_id uuid not null references ticketed_events(id),
      day date not null,
      page_views integer not null default 0,
      unique_visitors integer not null default 0,
      primary key (event_id, day)
    )`.execute(db);
  await sql`create index event_daily_views_organization on event_daily_views (organization_id, day)`.execute(db);
  await sql`
    create table event_day_visitors (
      event_id uuid not null references ticketed_events(id),
      day date not null,
      visitor_hash text not null,
      primary key (event_id, day, visitor_hash)
    )`.execute(db);

  await sql`
    create table coupon_daily_uses (
      organization_id text not null references organizations(id),
      event_id uuid not null references ticketed_events(id),
      coupon_id uuid not null references coupons(id),
      day date not null,
      uses integer not null default 0,
      discount bigint not null default 0,
      primary key (coupon_id, day)
    )`.execute(db);
  await sql`create index coupon_daily_uses_organization on coupon_daily_uses (organization_id, day)`.execute(db);

  // Who bought for which event (normalized email, else phone): unique and repeat attendees.
  await sql`
    create table organization_attendee_events (
      organization_id text not null references organizations(id),
      attendee_key text not null,
      event_id uuid not null references ticketed_events(id),
      day date not null,
      primary key (organization_id, attendee_key, event_id)
    )`.execute(db);
  await sql`create index organization_attendee_events_day on organization_attendee_events (organization_id, day)`.execute(db);

  // Tickets with an entry scan, per event; check-in increments it.
  await sql`
    create table event_checkin_counts (
      event_id uuid primary key references ticketed_events(id),
      tickets_checked_in integer not null default 0 check (tickets_checked_in >= 0)
    )`.execute(db);

  // The public activity feed: written in the transaction of what it reports.
  await sql`
    create table activity_items (
      seq bigserial primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      organization_id text not null references organizations(id),
      event_id uuid not null references ticketed_events(id),
      type text not null check (type in ('purchase', 'event_published', 'event_sold_out', 'event_starting')),
      actor_name text,
      quantity integer,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index activity_items_scope on activity_items (tenant_id, livemode, seq desc)`.execute(db);
  await sql`create index activity_items_event on activity_items (event_id, seq desc)`.execute(db);
  // An event is published, sells out and starts once in the feed.
  await sql`create unique index activity_items_once on activity_items (event_id, type) where type <> 'purchase'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'activity_items', 'event_checkin_counts', 'organization_attendee_events', 'coupon_daily_uses',
    'event_day_visitors', 'event_daily_views', 'event_daily_sales',
  ]) {
    await sql`drop table ${sql.table(table)}`.execute(db);
  }
}
