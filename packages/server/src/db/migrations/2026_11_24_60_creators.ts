import { type Kysely, sql } from 'kysely';

/**
 * Creators: the capsule profile of a creator organization (one row per organization, made on first use), its
 * followers, content with its review state, and the history of submissions and decisions.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table capsule_profiles (
      organization_id text primary key references organizations(id),
      id text not null unique,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      tagline text,
      bio text,
      creator_type text,
      category text,
      hero_media jsonb not null default '[]'::jsonb,
      links jsonb not null default '[]'::jsonb,
      external_storefront_url text,
      join_enabled boolean not null default false,
      subscription_enabled boolean not null default false,
      is_public boolean not null default false,
      avatar_asset_id text,
      avatar_url text,
      cover_asset_id text,
      cover_url text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table capsule_followers (
      organization_id text not null references organizations(id),
      customer text not null,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      created_at timestamptz not null default now(),
      primary key (organization_id, customer)
    )`.execute(db);

  await sql`
    create table contents (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      organization_id text not null references organizations(id),
      type text not null check (type in ('drop', 'video', 'post')),
      title text not null,
      slug text not null,
      description text,
      trailer_asset_id text,
      item_asset_ids text[] not null default '{}',
      visibility text not null default 'public' check (visibility in ('public', 'unlisted')),
      price_amount integer check (price_amount is null or price_amount >= 0),
      price_currency text,
      status text not null default 'draft'
        check (status in ('draft', 'pending_review', 'changes_requested', 'approved', 'published', 'rejected')),
      review_note text,
      requested_items text[] not null default '{}',
      submitted_at timestamptz,
      approved_at timestamptz,
      published_at timestamptz,
      rejected_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index contents_slug on contents (tenant_id, livemode, slug)`.execute(db);
  await sql`create index contents_organization on contents (organization_id, id)`.execute(db);
  await sql`create index contents_review on contents (tenant_id, livemode, status, submitted_at, id)`.execute(db);
  await sql`create index contents_published on contents (tenant_id, livemode, id) where status = 'published'`.execute(db);

  await sql`
    create table content_approvals (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      content_id text not null references contents(id),
      action text not null check (action in ('submitted', 'approved', 'published', 'rejected', 'changes_requested')),
      actor_type text not null check (actor_type in ('user', 'api_key')),
      actor_id text not null,
      note text,
      items text[] not null default '{}',
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index content_approvals_content on content_approvals (content_id, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table content_approvals, contents, capsule_followers, capsule_profiles`.execute(db);
}
