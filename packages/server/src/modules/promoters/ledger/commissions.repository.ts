import type { CursorPageQuery } from '@svc/contract';
import { sql, type Insertable, type Transaction } from 'kysely';
import { isIdOf } from '../../../core/ids';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { CommissionRow, CommissionsTable } from '../../../db/promoters.schema';
import type { DB } from '../../../db/schema';

export async function findCommission(db: Executor, scope: Scope, id: string): Promise<CommissionRow | undefined> {
  if (!isIdOf('commission', id)) return undefined;
  return scoped(db, scope).selectFrom('commissions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The order's entries, locked: a refund and an approval or a payout of them take turns. */
export const lockEntriesOfOrder = (trx: Transaction<DB>, scope: Scope, orderId: string) =>
  scoped(trx, scope).selectFrom('commissions').selectAll().where('order_id', '=', orderId).orderBy('id').forUpdate().execute();

// The partial index's predicate as a literal: a bound parameter cannot prove it under a generic plan.
const ONE_COMMISSION = sql<boolean>`type = 'commission'`;

/** Inserts an entry; a second commission entry for one order (a repeated confirmation) answers `undefined`. */
export const insertCommission = (db: Executor, scope: Scope, values: Omit<Insertable<CommissionsTable>, 'tenant_id' | 'livemode'>) =>
  scoped(db, scope)
    .insertInto('commissions', values)
    .onConflict((oc) => oc.column('order_id').where(ONE_COMMISSION).doNothing())
    .returningAll()
    .executeTakeFirst();

export interface CommissionFilters {
  promoters?: readonly string[];
  promoter?: string;
  order?: string;
  status?: string;
  type?: string;
  payout?: string;
}

export function listCommissions(db: Executor, scope: Scope, f: CommissionFilters, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('commissions').selectAll();
  if (f.promoters) q = q.where('promoter_id', 'in', f.promoters.length ? f.promoters : ['']);
  if (f.promoter) q = q.where('promoter_id', '=', f.promoter);
  if (f.order) q = q.where('order_id', '=', f.order);
  if (f.status) q = q.where('status', '=', f.status as CommissionRow['status']);
  if (f.type) q = q.where('type', '=', f.type as CommissionRow['type']);
  if (f.payout) q = q.where('payout_id', '=', f.payout);
  return paginate(q, 'commissions.id', page);
}

/** Due pending entries whose order still counts (paid or partly refunded), across tenants, locked and skipped by other runs. */
export function lockDuePending(trx: Transaction<DB>, now: Date, only?: { scope: Scope; orderId: string }) {
  let q = trx
    .selectFrom('commissions')
    .innerJoin('promoter_sales', 'promoter_sales.order_id', 'commissions.order_id')
    .selectAll('commissions')
    .where('commissions.status', '=', 'pending')
    .where('commissions.available_at', '<=', now)
    .where('promoter_sales.order_status', 'in', ['paid', 'partially_refunded']);
  if (only) q = q.where('commissions.tenant_id', '=', only.scope.tenantId).where('commissions.livemode', '=', only.scope.livemode).where('commissions.order_id', '=', only.orderId);
  return q.orderBy('commissions.available_at').limit(500).forUpdate().skipLocked().execute();
}
