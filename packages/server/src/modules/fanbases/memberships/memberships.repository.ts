import type { CursorPageQuery } from '@svc/contract';
import { sql, type Insertable, type Updateable } from 'kysely';
import { isIdOf } from '../../../core/ids';
import { paginate, whereMetadata } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { FanbaseMembershipsTable, MembershipRow } from '../../../db/fanbases.schema';

export type MembershipView = MembershipRow & { subscription_status: string | null };

const withSubscription = (db: Executor, scope: Scope) =>
  scoped(db, scope)
    .selectFrom('fanbase_memberships')
    .leftJoin('subscriptions', 'subscriptions.id', 'fanbase_memberships.subscription_id')
    .selectAll('fanbase_memberships')
    .select('subscriptions.status as subscription_status');

export async function findMembership(db: Executor, scope: Scope, fanbaseId: string, id: string): Promise<MembershipView | undefined> {
  if (!isIdOf('membership', id)) return undefined;
  return withSubscription(db, scope).where('fanbase_memberships.id', '=', id).where('fanbase_memberships.fanbase_id', '=', fanbaseId).executeTakeFirst();
}

export async function findViews(db: Executor, scope: Scope, ids: readonly string[]): Promise<MembershipView[]> {
  if (ids.length === 0) return [];
  return withSubscription(db, scope).where('fanbase_memberships.id', 'in', [...ids]).execute();
}

export async function findOfCustomer(db: Executor, scope: Scope, fanbaseId: string, customer: string, options: { forUpdate?: boolean } = {}): Promise<MembershipRow | undefined> {
  let q = scoped(db, scope).selectFrom('fanbase_memberships').selectAll().where('fanbase_id', '=', fanbaseId).where('customer', '=', customer);
  if (options.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function lockMembership(db: Executor, scope: Scope, id: string): Promise<MembershipRow | undefined> {
  return scoped(db, scope).selectFrom('fanbase_memberships').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Inserts the customer's membership unless one exists (a join racing another); answers whether it inserted. */
export async function insertMembershipIfNew(db: Executor, scope: Scope, values: Omit<Insertable<FanbaseMembershipsTable>, 'tenant_id' | 'livemode'>): Promise<boolean> {
  const rows = await scoped(db, scope)
    .insertInto('fanbase_memberships', values)
    .onConflict((oc) => oc.columns(['fanbase_id', 'customer']).doNothing())
    .returning('id')
    .execute();
  return rows.length > 0;
}

export async function updateMembership(db: Executor, scope: Scope, id: string, values: Updateable<FanbaseMembershipsTable>): Promise<MembershipRow> {
  return scoped(db, scope).updateTable('fanbase_memberships').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export interface MemberFilters {
  status?: MembershipRow['status'];
  tier?: string;
  source?: MembershipRow['source'];
  subscription_status?: string;
  search?: string;
  metadata?: Record<string, string>;
}

export function membersQuery(db: Executor, scope: Scope, fanbaseId: string, f: MemberFilters) {
  let q = withSubscription(db, scope).where('fanbase_memberships.fanbase_id', '=', fanbaseId);
  if (f.status) q = q.where('fanbase_memberships.status', '=', f.status);
  if (f.tier) q = q.where('fanbase_memberships.tier_id', '=', f.tier);
  if (f.source) q = q.where('fanbase_memberships.source', '=', f.source);
  if (f.subscription_status) q = q.where('subscriptions.status', '=', f.subscription_status as never);
  if (f.search) {
    const like = `%${f.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const matching = scoped(db, scope)
      .selectFrom('customers')
      .select('customers.id')
      .where(sql<boolean>`(lower(coalesce(customers.email, '')) like ${like} or coalesce(customers.phone, '') like ${like} or lower(coalesce(customers.name, '')) like ${like})`);
    q = q.where('fanbase_memberships.customer', 'in', matching);
  }
  return whereMetadata(q, 'fanbase_memberships.metadata', f.metadata);
}

export async function listMembers(db: Executor, scope: Scope, fanbaseId: string, filters: MemberFilters, page: CursorPageQuery) {
  return paginate(membersQuery(db, scope, fanbaseId, filters), 'fanbase_memberships.id', page);
}

/** Memberships of a fanbase after `afterId`, in id order, `limit` at a time (the tier sync's walk). */
export async function membershipIdsAfter(db: Executor, scope: Scope, fanbaseId: string, afterId: string, limit: number, tierId?: string) {
  let q = scoped(db, scope).selectFrom('fanbase_memberships').select('id').where('fanbase_id', '=', fanbaseId).where('id', '>', afterId).where('status', '=', 'active');
  if (tierId) q = q.where((eb) => eb.or([eb('tier_id', '=', tierId), eb('comp_tier_id', '=', tierId)]));
  return (await q.orderBy('id').limit(limit).execute()).map((r) => r.id);
}

export async function membershipsOfCustomer(db: Executor, scope: Scope, customer: string): Promise<MembershipView[]> {
  return withSubscription(db, scope).where('fanbase_memberships.customer', '=', customer).orderBy('fanbase_memberships.id', 'desc').limit(100).execute();
}

/** The `customer` of every active membership of the organization's fanbase (the capsule's audience). */
export const activeMemberCustomers = (db: Executor, scope: Scope, organizationId: string) =>
  scoped(db, scope).selectFrom('fanbase_memberships').select('fanbase_memberships.customer').where('organization_id', '=', organizationId).where('status', '=', 'active');

/** The viewer's active memberships among the organizations' fanbases (content gates). */
export async function activeMembershipsOfCustomer(db: Executor, scope: Scope, customer: string, organizationIds: readonly string[]): Promise<MembershipRow[]> {
  if (organizationIds.length === 0) return [];
  return scoped(db, scope)
    .selectFrom('fanbase_memberships')
    .selectAll()
    .where('customer', '=', customer)
    .where('organization_id', 'in', [...organizationIds])
    .where('status', '=', 'active')
    .execute();
}
