import type { Kysely } from 'kysely';

/** A subscription's checkout page for its latest order while that order is unpaid (`checkout_url`). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('checkout_url', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('checkout_url').execute();
}
