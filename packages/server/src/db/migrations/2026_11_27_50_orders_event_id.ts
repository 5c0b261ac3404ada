import { type Kysely, sql } from 'kysely';

/**
 * An event's orders in id order, for `GET /v1/orders?event=…`: paged over this index (`withinParent`), a page reads
 * only the event's orders, where walking the tenant's orders by id may read every other event's first.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index orders_event_id on orders (event_id, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index orders_event_id`.execute(db);
}
