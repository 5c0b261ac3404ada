import type { Customer, CursorPageQuery } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { CustomerRow } from '../../../db/identity.schema';
import { accessDeps, listEntitlements, revokeEntitlement } from '../../access';

export function serializeCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    object: 'customer',
    livemode: row.livemode,
    email: row.email,
    phone: row.phone,
    name: row.name,
    person: row.user_id,
    external_id: row.external_id,
    metadata: row.metadata,
    created_at: new Date(row.created_at).toISOString(),
  };
}

const externalIdTaken = (err: unknown) =>
  isUniqueViolation(err, 'customers_external_id') ? ApiError.of('external_id_taken', { param: 'external_id' }) : err;

export interface CustomerInput {
  email?: string | null;
  phone?: string | null;
  name?: string | null;
  external_id?: string | null;
  metadata?: Record<string, string>;
}

const live = (db: Executor, scope: Scope) => scoped(db, scope).selectFrom('customers').selectAll().where('deleted_at', 'is', null);

export async function createCustomer(db: Executor, scope: Scope, input: CustomerInput): Promise<Customer> {
  try {
    const row = await scoped(db, scope)
      .insertInto('customers', {
        id: newId('customer'),
        email: input.email?.toLowerCase() ?? null,
        phone: input.phone ?? null,
        name: input.name ?? null,
        user_id: null,
        external_id: input.external_id ?? null,
        metadata: JSON.stringify(input.metadata ?? {}),
        deleted_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return serializeCustomer(row);
  } catch (err) {
    throw externalIdTaken(err);
  }
}

async function getRow(db: Executor, scope: Scope, id: string): Promise<CustomerRow> {
  const row = isIdOf('customer', id) ? await live(db, scope).where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw ApiError.notFound('customer', id);
  return row;
}

export const getCustomer = async (db: Executor, scope: Scope, id: string) => serializeCustomer(await getRow(db, scope, id));

export async function getCustomerByExternalId(db: Executor, scope: Scope, externalId: string): Promise<Customer> {
  const row = await live(db, scope).where('external_id', '=', externalId).executeTakeFirst();
  if (!row) throw ApiError.notFound('customer with external_id', externalId);
  return serializeCustomer(row);
}

export async function listCustomers(db: Executor, scope: Scope, filters: { email?: string; phone?: string }, page: CursorPageQuery) {
  let q = live(db, scope);
  if (filters.email) q = q.where('email', '=', filters.email.toLowerCase());
  if (filters.phone) q = q.where('phone', '=', filters.phone);
  const result = await paginate(q, 'customers.id', page);
  return { ...result, data: result.data.map(serializeCustomer) };
}

export async function updateCustomer(db: Executor, scope: Scope, id: string, input: CustomerInput): Promise<Customer> {
  await getRow(db, scope, id);
  try {
    const row = await scoped(db, scope)
      .updateTable('customers')
      .set({
        ...(input.email !== undefined && { email: input.email?.toLowerCase() ?? null }),
        ...(input.phone !== undefined && { phone: input.phone }),
        ...(input.name !== undefined && { name: input.name }),
        ...(input.external_id !== undefined && { external_id: input.external_id }),
        ...(input.metadata !== undefined && { metadata: JSON.stringify(input.metadata) }),
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw ApiError.notFound('customer', id);
    return serializeCustomer(row);
  } catch (err) {
    throw externalIdTaken(err);
  }
}

/**
 * Revokes the customer's entitlements through Access (each revoke ends its sessions and emits its event),
 * then deletes the customer. In that order a failure part-way leaves the customer in place, and a retried
 * DELETE finishes the work: revoking is idempotent.
 */
export async function deleteCustomer(ctx: AppContext, scope: Scope, id: string) {
  await getRow(ctx.db, scope, id);
  const deps = accessDeps(ctx);
  for (const status of ['active', 'suspended'] as const) {
    for (;;) {
      const page = await listEntitlements(deps, scope, { customer: id, status }, { limit: 100 });
      for (const entitlement of page.data) await revokeEntitlement(deps, scope, entitlement.id);
      if (!page.meta.pagination.has_more) break;
    }
  }
  const deleted = await scoped(ctx.db, scope)
    .updateTable('customers')
    .set({ deleted_at: new Date(), updated_at: new Date() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!deleted) throw ApiError.notFound('customer', id);
  return { id, object: 'customer' as const, deleted: true as const };
}
