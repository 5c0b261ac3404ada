import type { Kysely } from 'kysely';

/**
 * A card payment that the provider kept for off-session use (Stripe's customer and payment method, Paystack's
 * reusable authorization) carries that reference sealed; a subscription renewing automatically names the
 * payment whose reference it charges.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('saved_method_sealed', 'text').execute();
  await db.schema.alterTable('subscriptions').addColumn('renewal_payment_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('renewal_payment_id').execute();
  await db.schema.alterTable('payments').dropColumn('saved_method_sealed').execute();
}
