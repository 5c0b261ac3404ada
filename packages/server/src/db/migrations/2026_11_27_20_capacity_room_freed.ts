import { type Kysely, sql } from 'kysely';

/**
 * Tells every process, when the transaction commits, of each event whose room to book grew: seats given back
 * (`held` or `sold` down) or a capacity changed. Bookings keep the targets they last read with no room
 * (`SoldOutMemo`) until they hear this. Holding and selling seats leave the room as it was or smaller, so the
 * trigger's condition keeps it off the rush's own path. `pg_notify` sends a payload once per transaction however
 * many rows name it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function notify_room_freed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('svc_ticketing_room', new.event_id::text);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger capacity_buckets_room_freed after update on capacity_buckets
    for each row
    when (new.held + new.sold < old.held + old.sold or new.capacity is distinct from old.capacity)
    execute function notify_room_freed()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger capacity_buckets_room_freed on capacity_buckets`.execute(db);
  await sql`drop function notify_room_freed()`.execute(db);
}
