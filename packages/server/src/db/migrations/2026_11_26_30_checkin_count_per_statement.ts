import { type Kysely, sql } from 'kysely';

/**
 * The checked-in count once per statement instead of once per scan: door scans are stored many to a statement
 * (group commit), and a row trigger added to the row of each ticket's hash, so two statements of 25 scans took
 * most of the 32 rows each, in different orders, and deadlocked. A statement now adds its first entries to the
 * one row of its backend (per event): one lock per statement, and concurrent backends mostly on rows of their own.
 * Its look-up of earlier entries is an index probe per new scan whatever the statistics say (a subquery, not a
 * join; no sequential scan): a plan made while `checkins` was nearly empty (a new database's first event) read
 * the whole table once per scan until the table was analysed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop trigger checkins_count_first_entry on checkins`.execute(db);
  await sql`
    create or replace function count_first_entries() returns trigger language plpgsql as $$
    begin
      insert into event_checkin_counts as c (event_id, shard, tickets_checked_in)
      select n.event_id, pg_backend_pid() % 32, count(distinct n.ticket_id)
        from new_rows n
       where n.status = 'ok' and n.type = 'entry' and n.ticket_id is not null
         and (select o.id from checkins o
               where o.ticket_id = n.ticket_id and o.status = 'ok' and o.type = 'entry'
                 and o.id not in (select id from new_rows) limit 1) is null
       group by n.event_id
      on conflict (event_id, shard) do update set tickets_checked_in = c.tickets_checked_in + excluded.tickets_checked_in;
      return null;
    end $$ set enable_seqscan = off`.execute(db);
  await sql`
    create trigger checkins_count_first_entries after insert on checkins
    referencing new table as new_rows for each statement execute function count_first_entries()`.execute(db);
  await sql`drop function count_first_entry()`.execute(db);
  // The nonces of a batch of scans already stored for the event, by the unique index whatever the statistics say
  // (the statement's cached plan, made on a nearly empty table, hashed every scan of the event for each batch).
  await sql`
    create function checkin_nonces_stored(event uuid, nonces text[]) returns setof text language sql stable
    set enable_seqscan = off as $$ select nonce from checkins where event_id = event and nonce = any(nonces) $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function checkin_nonces_stored(uuid, text[])`.execute(db);
  await sql`drop trigger checkins_count_first_entries on checkins`.execute(db);
  await sql`drop function count_first_entries()`.execute(db);
  await sql`
    create function count_first_entry() returns trigger language plpgsql as $$
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
  await sql`create trigger checkins_count_first_entry after insert on checkins for each row execute function count_first_entry()`.execute(db);
}
