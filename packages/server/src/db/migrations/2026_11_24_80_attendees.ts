import { type Kysely, sql } from 'kysely';

/**
 * The organizer's view of attendees and the door: each ticket gets the spec's attendee uuid, the review
 * outcome, the invite and ticket delivery statuses (moved by messaging's delivery events) and the time of
 * its last resend; every scan at the door, failed ones too, is a `checkins` row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table tickets
      add column attendee_id uuid not null default gen_random_uuid(),
      add column review_reason text,
      add column reviewed_at timestamptz,
      add column invite_status text not null default 'not_requested'
        check (invite_status in ('not_requested', 'queued', 'delivered', 'failed')),
      add column ticket_delivery_status text not null default 'not_requested'
        check (ticket_delivery_status in ('not_requested', 'queued', 'delivered', 'failed')),
      add column resent_at timestamptz`.execute(db);
  await sql`create unique index tickets_attendee on tickets (attendee_id)`.execute(db);

  await sql`
    create table checkins (
      id uuid primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      event_id uuid not null references ticketed_events(id),
      ticket_id text references tickets(id),
      type text not null check (type in ('entry', 'exit')),
      status text not null check (status in ('ok', 'error')),
      reason text check (reason in ('invalid', 'unpaid', 'cancelled', 'unapproved', 'already_redeemed', 'invalid_time')),
      nonce text,
      forced boolean not null default false,
      scanned_at timestamptz not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  // A scan sent again (an offline scanner retrying) is found by its nonce; nulls never collide.
  await sql`create unique index checkins_nonce on checkins (event_id, nonce)`.execute(db);
  await sql`create index checkins_event on checkins (event_id, id desc)`.execute(db);
  await sql`create index checkins_ticket on checkins (ticket_id, id desc) where status = 'ok'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table checkins`.execute(db);
  await sql`
    alter table tickets
      drop column attendee_id, drop column review_reason, drop column reviewed_at,
      drop column invite_status, drop column ticket_delivery_status, drop column resent_at`.execute(db);
}
