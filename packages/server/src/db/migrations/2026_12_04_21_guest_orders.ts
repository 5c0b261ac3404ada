import { type Kysely, sql } from 'kysely';

/** Guest orders found by their buyer's email or phone when that person signs in (they then take the customer). */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index orders_guest_email on orders (tenant_id, livemode, buyer_email) where customer_id is null and buyer_email is not null`.execute(db);
  await sql`create index orders_guest_phone on orders (tenant_id, livemode, buyer_phone) where customer_id is null and buyer_phone is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index orders_guest_phone`.execute(db);
  await sql`drop index orders_guest_email`.execute(db);
}
