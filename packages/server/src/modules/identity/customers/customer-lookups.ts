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

/**
 * `findOrCreateCustomerByEmail` for several emails at once (names for the ones made): the same advisory locks,
 * taken in one statement in address order (so two callers never wait for each other crosswise), then one
 * statement that finds the oldest customer of each address and makes the missing ones. Answers id by address
 * (lower-cased).
 */
export async function findOrCreateCustomersByEmail(
  db: Executor,
  scope: Scope,
  people: ReadonlyArray<{ email: string; name: string | null }>,
): Promise<Map<string, string>> {
  const byAddress = new Map<string, string | null>();
  for (const p of people) {
    const address = p.email.toLowerCase();
    if (!byAddress.has(address)) byAddress.set(address, p.name);
  }
  const addresses = [...byAddress.keys()].sort();
  if (addresses.length === 0) return new Map();
  const keys = addresses.map((a) => `customer-email:${scope.tenantId}:${scope.livemode}:${a}`);
  await sql`select pg_advisory_xact_lock(hashtextextended(k, 0)) from unnest(${keys}::text[]) with ordinality as u(k, n) order by n`.execute(db);
  // A statement after the locks: its snapshot sees a customer another holder of the lock made and committed.
  const { rows } = await sql<{ id: string; email: string }>`
    with wanted as (
      select * from unnest(${addresses}::text[], ${addresses.map((a) => byAddress.get(a) ?? null)}::text[],
        ${addresses.map(() => newId('customer'))}::text[]) as w(email, name, new_id)
    ), existing as (
      -- The oldest customer of each address, the addresses looked up together in the email index: a lookup per
      -- address (a lateral subquery) was planned as a scan of the tenant's customers while they were few, and a
      -- prepared statement keeps that plan as they grow.
      select distinct on (c.email) c.id, c.email from customers c
      where c.tenant_id = ${scope.tenantId} and c.livemode = ${scope.livemode} and c.email = any(${addresses}::text[])
        and c.deleted_at is null
      order by c.email, c.id
    ), created as (
      insert into customers (id, tenant_id, livemode, email, phone, name, user_id, external_id, metadata, deleted_at)
      select w.new_id, ${scope.tenantId}, ${scope.livemode}, w.email, null, w.name, null, null, '{}'::jsonb, null
      from wanted w where not exists (select 1 from existing x where x.email = w.email)
      returning id, email
    )
    select id, email from existing union all select id, email from created`.execute(db);
  return new Map(rows.map((r) => [r.email, r.id]));
}

/** The customers among `ids` that exist (not deleted). */
export async function findCustomersByIds(db: Executor, scope: Scope, ids: readonly string[]): Promise<CustomerRow[]> {
  if (ids.length === 0) return [];
  return scoped(db, scope).selectFrom('customers').selectAll().where('id', 'in', [...ids]).where('deleted_at', 'is', null).execute();
}
