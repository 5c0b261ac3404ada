import { type Kysely, sql } from 'kysely';

/**
 * An event's checked-in count in 32 rows instead of one: every first entry added one to the event's single row,
 * so the doors of one event took turns on that row's lock until each scan committed. A first entry now adds to
 * the row its ticket falls in (a hash of the ticket id); readers sum the rows of the event.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table event_checkin_counts add column shard smallint not null default 0`.execute(db);
  await sql`alter table event_checkin_counts drop constraint event_checkin_counts_pkey`.execute(db);
  await sql`alter table event_checkin_counts add primary key (event_id, shard)`.execute(db);
  await sql`
    create or replace function count_first_entry() returns trigger language plpgsql as $$
    begin
      if new.status = 'ok' and new.type = 'entry' and new.ticket_id is not null and not exists (
        select 1 from checkins
        where ticket_id = new.ticket_id and status = 'ok' and type = 'entry' and id <> new.id
      ) then
        insert into event_checkin_counts as c (event_id, shard, tickets_checked_in)
        values (new.event_id, abs(hashtext(new.ticket_id) % 32), 1)
        on conflict (event_id, shard) do update set tickets_checked_in = c.tickets_checked_in + 1;
      end if;
      return null;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function count_first_entry() returns trigger language plpgsql as $$
    begin
      if new.status = 'ok' and new.type = 'entry' and new.ticket_id is not null and not exists (
        select 1 from checkins
        where ticket_id = new.ticket_id and status = 'ok' and type = 'entry' and id <> new.id
      ) then
        insert into event_checkin_counts as c (event_id, tickets_checked_in) values (new.event_id, 1)
        on conflict (event_id) do update set tickets_checked_in = c.tickets_checked_in + 1;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    with summed as (delete from event_checkin_counts returning event_id, tickets_checked_in)
    insert into event_checkin_counts (event_id, shard, tickets_checked_in)
    select event_id, 0, sum(tickets_checked_in) from summed group by event_id`.execute(db);
  await sql`alter table event_checkin_counts drop constraint event_checkin_counts_pkey`.execute(db);
  await sql`alter table event_checkin_counts drop column shard`.execute(db);
  await sql`alter table event_checkin_counts add primary key (event_id)`.execute(db);
}
