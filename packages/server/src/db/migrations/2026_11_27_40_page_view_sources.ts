import { type Kysely, sql } from 'kysely';

/**
 * Where each page view came from (`source` of the public read; null when none was given, counted as `direct`),
 * and the views per event, day and source, which the organizer's `traffic_sources` rank.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table event_page_views add column source text`.execute(db);
  await sql`
    create table event_daily_sources (
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      organization_id text not null references organizations(id),
      event_id uuid not null references ticketed_events(id),
      day date not null,
      source text not null,
      page_views integer not null default 0,
      primary key (event_id, day, source)
    )`.execute(db);
  await sql`create index event_daily_sources_organization on event_daily_sources (organization_id, day)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table event_daily_sources`.execute(db);
  await sql`alter table event_page_views drop column source`.execute(db);
}
