import { sql } from 'kysely';
import { newId } from '../../../core/ids';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { CustomerRow } from '../../../db/identity.schema';

/** A customer that is not deleted, by id. */
export async function findCustomer(db: Executor, scope: Scope, id: string): Promise<CustomerRow | undefined> {
  return scoped(db, scope).selectFrom('customers').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

/**
 * The oldest customer with this email, or a new one. Two transactions doing this for one email take turns on
 * a transaction-scoped advisory lock, so they do not make two customers.
 */
export async function findOrCreateCustomerByEmail(db: Executor, scope: Scope, email: string, name: string | null): Promise<CustomerRow> {
  const address = email.toLowerCase();
  await sql`select pg_advisory_xact_lock(hashtextextended(${`customer-email:${scope.tenantId}:${scope.livemode}:${address}`}, 0))`.execute(db);
  const existing = await scoped(db, scope)
    .selectFrom('customers')
    .selectAll()
    .where('email', '=', address)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (existing) return existing;
  return scoped(db, scope)
    .insertInto('customers', {
      id: newId('customer'),
      email: address,
      phone: null,
      name,
      user_id: null,
      external_id: null,
      metadata: JSON.stringify({}),
      deleted_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
