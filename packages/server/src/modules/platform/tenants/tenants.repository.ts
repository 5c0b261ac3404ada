import type { CursorPageQuery } from '@svc/contract';
import type { Executor } from '../../../db/database';
import type { TenantRow, TenantsTable } from '../../../db/schema';
import type { Insertable, Updateable } from 'kysely';
import { paginate, whereMetadata } from '../../../core/pagination';

// Tenants are the scope itself, so these queries are the operator's and take no tenant scope.

export async function insertTenant(db: Executor, tenant: Insertable<TenantsTable>): Promise<TenantRow> {
  return db.insertInto('tenants').values(tenant).returningAll().executeTakeFirstOrThrow();
}

export async function findTenant(db: Executor, id: string, opts: { forUpdate?: boolean } = {}) {
  let q = db.selectFrom('tenants').selectAll().where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findTenantByExternalId(db: Executor, externalId: string) {
  return db.selectFrom('tenants').selectAll().where('external_id', '=', externalId).executeTakeFirst();
}

export async function listTenants(
  db: Executor,
  filters: { external_id?: string; metadata?: Record<string, string> },
  page: CursorPageQuery,
) {
  let q = db.selectFrom('tenants').selectAll();
  if (filters.external_id) q = q.where('external_id', '=', filters.external_id);
  q = whereMetadata(q, 'tenants.metadata', filters.metadata);
  return paginate(q, 'tenants.id', page);
}

export async function updateTenantRow(db: Executor, id: string, changes: Updateable<TenantsTable>) {
  return db.updateTable('tenants').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function countTenants(db: Executor): Promise<number> {
  const { n } = await db.selectFrom('tenants').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(n);
}
