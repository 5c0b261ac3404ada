import type { CursorPageQuery } from '@svc/contract';
import type { Updateable } from 'kysely';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { DomainRow, DomainsTable } from '../../../db/whitelabel.schema';
import { isIdOf } from '../../../core/ids';

export async function findDomain(db: Executor, scope: Scope, id: string, options: { forUpdate?: boolean } = {}): Promise<DomainRow | undefined> {
  if (!isIdOf('domain', id)) return undefined;
  let q = scoped(db, scope).selectFrom('domains').selectAll().where('id', '=', id);
  if (options.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function countDomains(db: Executor, scope: Scope): Promise<number> {
  const row = await scoped(db, scope).selectFrom('domains').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The row anywhere in the deployment that holds the hostname as verified or active (the unique claim). */
export async function findClaim(db: Executor, hostname: string): Promise<Pick<DomainRow, 'id' | 'tenant_id' | 'livemode'> | undefined> {
  return db.selectFrom('domains').select(['id', 'tenant_id', 'livemode']).where('hostname', '=', hostname).where('status', 'in', ['verified', 'active']).executeTakeFirst();
}

export async function findByHostname(db: Executor, scope: Scope, hostname: string): Promise<DomainRow | undefined> {
  return scoped(db, scope).selectFrom('domains').selectAll().where('hostname', '=', hostname).executeTakeFirst();
}

export async function insertDomain(db: Executor, scope: Scope, values: Omit<DomainRow, 'tenant_id' | 'livemode' | 'metadata' | 'trusted_origin' | 'txt_misses' | 'checks'> & { metadata: string; trusted_origin: boolean }) {
  return scoped(db, scope).insertInto('domains', values).returningAll().executeTakeFirstOrThrow();
}

export async function updateDomain(db: Executor, scope: Scope, id: string, values: Updateable<DomainsTable>): Promise<DomainRow> {
  return scoped(db, scope).updateTable('domains').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteDomain(db: Executor, scope: Scope, id: string): Promise<void> {
  await scoped(db, scope).deleteFrom('domains').where('id', '=', id).execute();
}

export async function listDomains(db: Executor, scope: Scope, filters: { status?: string; organization?: string }, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('domains').selectAll();
  if (filters.status) q = q.where('status', '=', filters.status as DomainRow['status']);
  if (filters.organization) q = q.where('organization_id', '=', filters.organization);
  return paginate(q, 'domains.id', page);
}

/** Domains whose next check is due, oldest due first, across tenants (the check job). */
export async function findDueDomains(db: Executor, now: Date, limit = 100) {
  return db.selectFrom('domains').select(['id', 'tenant_id', 'livemode']).where('next_check_at', '<=', now).orderBy('next_check_at').limit(limit).execute();
}
