import type { CursorPageQuery } from '@svc/contract';
import { sql, type Insertable, type Updateable } from 'kysely';
import { isIdOf } from '../../../core/ids';
import { paginate, whereMetadata } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { FanbaseRow, FanbasesTable } from '../../../db/fanbases.schema';

export async function findFanbase(db: Executor, scope: Scope, id: string, options: { forUpdate?: boolean } = {}): Promise<FanbaseRow | undefined> {
  if (!isIdOf('fanbase', id)) return undefined;
  let q = scoped(db, scope).selectFrom('fanbases').selectAll().where('id', '=', id);
  if (options.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findByOrganization(db: Executor, scope: Scope, organizationId: string): Promise<FanbaseRow | undefined> {
  return scoped(db, scope).selectFrom('fanbases').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();
}

export async function findByExternalId(db: Executor, scope: Scope, externalId: string): Promise<FanbaseRow | undefined> {
  return scoped(db, scope).selectFrom('fanbases').selectAll().where('external_id', '=', externalId).executeTakeFirst();
}

export async function insertFanbase(db: Executor, scope: Scope, values: Omit<Insertable<FanbasesTable>, 'tenant_id' | 'livemode'>): Promise<FanbaseRow> {
  return scoped(db, scope).insertInto('fanbases', values).returningAll().executeTakeFirstOrThrow();
}

export async function updateFanbase(db: Executor, scope: Scope, id: string, values: Updateable<FanbasesTable>): Promise<FanbaseRow> {
  return scoped(db, scope).updateTable('fanbases').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export interface FanbaseFilters {
  organization?: string;
  status?: FanbaseRow['status'];
  metadata?: Record<string, string>;
  /** Only these organizations' (a member's); `null` for all. */
  organizations: string[] | null;
}

export async function listFanbases(db: Executor, scope: Scope, filters: FanbaseFilters, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('fanbases').selectAll();
  if (filters.organization) q = q.where('organization_id', '=', filters.organization);
  if (filters.status) q = q.where('status', '=', filters.status);
  if (filters.organizations) q = filters.organizations.length ? q.where('organization_id', 'in', filters.organizations) : q.where(sql<boolean>`false`);
  return paginate(whereMetadata(q, 'fanbases.metadata', filters.metadata), 'fanbases.id', page);
}

/** Active memberships and live-and-paid subscriptions of each fanbase, counted from the rows. */
export async function countsOf(db: Executor, ids: readonly string[]): Promise<Map<string, { members: number; subscribers: number }>> {
  const counts = new Map(ids.map((id) => [id, { members: 0, subscribers: 0 }]));
  if (ids.length === 0) return counts;
  const [members, subscribers] = await Promise.all([
    db.selectFrom('fanbase_memberships').select(['fanbase_id', (eb) => eb.fn.countAll<string>().as('n')]).where('fanbase_id', 'in', [...ids]).where('status', '=', 'active').groupBy('fanbase_id').execute(),
    db.selectFrom('subscriptions').select(['fanbase_id', (eb) => eb.fn.countAll<string>().as('n')]).where('fanbase_id', 'in', [...ids]).where('status', 'in', ['active', 'past_due']).groupBy('fanbase_id').execute(),
  ]);
  for (const r of members) counts.get(r.fanbase_id)!.members = Number(r.n);
  for (const r of subscribers) counts.get(r.fanbase_id)!.subscribers = Number(r.n);
  return counts;
}
