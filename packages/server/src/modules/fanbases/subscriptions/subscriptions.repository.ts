import type { CursorPageQuery } from '@svc/contract';
import { sql, type Insertable, type Updateable } from 'kysely';
import { isIdOf } from '../../../core/ids';
import { paginate, whereMetadata } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { SubscriptionRow, SubscriptionsTable } from '../../../db/fanbases.schema';
import { keptCardPayments } from '../../payments';

export async function findSubscription(db: Executor, scope: Scope, id: string, options: { forUpdate?: boolean } = {}): Promise<SubscriptionRow | undefined> {
  if (!isIdOf('subscription', id)) return undefined;
  let q = scoped(db, scope).selectFrom('subscriptions').selectAll().where('id', '=', id);
  if (options.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function insertSubscription(db: Executor, scope: Scope, values: Omit<Insertable<SubscriptionsTable>, 'tenant_id' | 'livemode'>): Promise<SubscriptionRow> {
  return scoped(db, scope).insertInto('subscriptions', values).returningAll().executeTakeFirstOrThrow();
}

export async function updateSubscription(db: Executor, scope: Scope, id: string, values: Updateable<SubscriptionsTable>): Promise<SubscriptionRow> {
  return scoped(db, scope).updateTable('subscriptions').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export interface SubscriptionFilters {
  fanbase?: string;
  customer?: string;
  status?: SubscriptionRow['status'];
  tier?: string;
  metadata?: Record<string, string>;
  /** Only these organizations' (a member's); `null` for all. */
  organizations?: string[] | null;
}

export async function listSubscriptions(db: Executor, scope: Scope, f: SubscriptionFilters, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('subscriptions').selectAll();
  if (f.fanbase) q = q.where('fanbase_id', '=', f.fanbase);
  if (f.customer) q = q.where('customer', '=', f.customer);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.tier) q = q.where('tier_id', '=', f.tier);
  if (f.organizations) q = f.organizations.length ? q.where('organization_id', 'in', f.organizations) : q.where(sql<boolean>`false`);
  return paginate(whereMetadata(q, 'subscriptions.metadata', f.metadata), 'subscriptions.id', page);
}

export async function subscriptionsOfCustomer(db: Executor, scope: Scope, customer: string): Promise<SubscriptionRow[]> {
  return scoped(db, scope).selectFrom('subscriptions').selectAll().where('customer', '=', customer).orderBy('id', 'desc').limit(100).execute();
}

/** Live subscriptions whose renewal needs work at `now`, across tenants, oldest due first (the renewal job's list). */
export async function findDue(db: Executor, now: Date, limit: number) {
  return db
    .selectFrom('subscriptions')
    .select(['id', 'tenant_id', 'livemode'])
    .where('next_attempt_at', 'is not', null)
    .where('next_attempt_at', '<=', now)
    .where('status', 'in', ['active', 'past_due'])
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}

/** The live subscriptions of a tier, `limit` at a time after `afterId` (a tier's grants changed). */
export async function liveIdsOfTier(db: Executor, scope: Scope, tierId: string, afterId: string, limit: number): Promise<string[]> {
  const rows = await scoped(db, scope).selectFrom('subscriptions').select('id').where('tier_id', '=', tierId).where('status', 'in', ['active', 'past_due']).where('id', '>', afterId).orderBy('id').limit(limit).execute();
  return rows.map((r) => r.id);
}

/**
 * The subscriptions that will still charge a card kept through a payment configuration: renewing automatically,
 * `active` (not set to end at its period end) or `past_due`. Their count keeps the configuration from deletion.
 */
export async function countRenewingOnConfig(db: Executor, scope: Scope, configId: string): Promise<number> {
  const row = await scoped(db, scope)
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('renewal_mode', '=', 'automatic')
    .where((eb) => eb.or([eb('status', '=', 'past_due'), eb.and([eb('status', '=', 'active'), eb('cancel_at_period_end', '=', false)])]))
    .where('renewal_payment_id', 'in', keptCardPayments(db, scope, configId))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
