import { type Kysely, sql } from 'kysely';

/**
 * Whether a ticket's holder is inside (its last accepted scan was an entry), on the ticket row itself: a scan
 * redeems a ticket with one conditional `UPDATE` of that row (two doors scanning it at once: the second finds it
 * already in), and the attendee lists read it without looking at the scans. Filled from the scans stored so far.
 * New pages of tickets keep a tenth free, so that update can stay on the row's page (no index entries to add).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table tickets add column checked_in boolean not null default false`.execute(db);
  await sql`alter table tickets set (fillfactor = 90)`.execute(db);
  await sql`
    update tickets t set checked_in = true
    where (select c.type = 'entry' from checkins c where c.ticket_id = t.id and c.status = 'ok' order by c.id desc limit 1)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table tickets reset (fillfactor)`.execute(db);
  await sql`alter table tickets drop column checked_in`.execute(db);
}
