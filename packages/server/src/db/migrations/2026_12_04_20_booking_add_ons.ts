import { type Kysely, sql } from 'kysely';

/**
 * Add-ons to a booking (products-api § 3.1): what a ticket order's product lines and their shipping add to its
 * total, so its ticket line is still known from the order row alone (`amount_total − amount_add_ons`). `null`:
 * the order has no add-ons, and nothing of commerce is read or written when it moves.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders add column amount_add_ons integer check (amount_add_ons >= 0 and amount_add_ons <= amount_total)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table orders drop column amount_add_ons`.execute(db);
}
