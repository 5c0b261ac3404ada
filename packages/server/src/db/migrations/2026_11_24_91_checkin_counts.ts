import { type Kysely, sql } from 'kysely';

/**
 * The analytics' check-in rate counts tickets with an entry. `event_checkin_counts` gains one per ticket at its
 * first accepted entry scan, in the scan's transaction, by a trigger on `checkins`: the check-in code stays as
 * it is, and no write path can forget it. The scan locks the ticket row first, so two first entries of one
 * ticket take turns and the second sees the first. Scans stored before this migration are counted once here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function count_first_entry() returns trigger language plpgsql as $$
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
  await sql`create trigger checkins_count_first_entry after insert on checkins for each row execute function count_first_entry()`.execute(db);
  await sql`
    insert into event_checkin_counts (event_id, tickets_checked_in)
    select event_id, count(distinct ticket_id) from checkins
    where status = 'ok' and type = 'entry' and ticket_id is not null group by event_id
    on conflict (event_id) do update set tickets_checked_in = excluded.tickets_checked_in`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger checkins_count_first_entry on checkins`.execute(db);
  await sql`drop function count_first_entry()`.execute(db);
}
