import type { CursorPageQuery } from '@svc/contract';
import type { Insertable, Updateable } from 'kysely';
import { isIdOf } from '../../../core/ids';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { MembershipTiersTable, TierRow } from '../../../db/fanbases.schema';

export async function findTier(db: Executor, scope: Scope, fanbaseId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<TierRow | undefined> {
  if (!isIdOf('membership_tier', id)) return undefined;
  let q = scoped(db, scope).selectFrom('membership_tiers').selectAll().where('id', '=', id).where('fanbase_id', '=', fanbaseId);
  if (options.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findTiersByIds(db: Executor, scope: Scope, ids: readonly string[]): Promise<TierRow[]> {
  if (ids.length === 0) return [];
  return scoped(db, scope).selectFrom('membership_tiers').selectAll().where('id', 'in', [...ids]).execute();
}

export async function insertTier(db: Executor, scope: Scope, values: Omit<Insertable<MembershipTiersTable>, 'tenant_id' | 'livemode'>): Promise<TierRow> {
  return scoped(db, scope).insertInto('membership_tiers', values).returningAll().executeTakeFirstOrThrow();
}

export async function updateTier(db: Executor, scope: Scope, id: string, values: Updateable<MembershipTiersTable>): Promise<TierRow> {
  return scoped(db, scope).updateTable('membership_tiers').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function listTiers(db: Executor, scope: Scope, fanbaseId: string, status: TierRow['status'] | undefined, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('membership_tiers').selectAll().where('fanbase_id', '=', fanbaseId);
  if (status) q = q.where('status', '=', status);
  return paginate(q, 'membership_tiers.id', page);
}

/** The published tiers of a fanbase, by `position` (what fans see). */
export async function publishedTiers(db: Executor, scope: Scope, fanbaseId: string): Promise<TierRow[]> {
  return scoped(db, scope).selectFrom('membership_tiers').selectAll().where('fanbase_id', '=', fanbaseId).where('status', '=', 'published').orderBy('position').orderBy('id').execute();
}

export async function publishedFreeTier(db: Executor, scope: Scope, fanbaseId: string): Promise<TierRow | undefined> {
  return scoped(db, scope).selectFrom('membership_tiers').selectAll().where('fanbase_id', '=', fanbaseId).where('status', '=', 'published').where('price', '=', 0).executeTakeFirst();
}

/** Active members holding each tier now. */
export async function memberCounts(db: Executor, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('fanbase_memberships').select(['tier_id', (eb) => eb.fn.countAll<string>().as('n')]).where('tier_id', 'in', [...ids]).where('status', '=', 'active').groupBy('tier_id').execute();
  return new Map(rows.map((r) => [r.tier_id!, Number(r.n)]));
}

/** Live subscriptions of a tier (a full tier refuses new ones). */
export async function liveSubscriptionCount(db: Executor, tierId: string): Promise<number> {
  const row = await db.selectFrom('subscriptions').select((eb) => eb.fn.countAll<string>().as('n')).where('tier_id', '=', tierId).where('status', 'in', ['incomplete', 'active', 'past_due']).executeTakeFirstOrThrow();
  return Number(row.n);
}
