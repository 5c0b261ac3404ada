import type { CursorPageQuery } from '@svc/contract';
import type { Insertable, Updateable } from 'kysely';
import { isIdOf } from '../../../core/ids';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { PayoutRow, PayoutsTable } from '../../../db/promoters.schema';

export async function findPayout(db: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<PayoutRow | undefined> {
  if (!isIdOf('payout', id)) return undefined;
  let q = scoped(db, scope).selectFrom('payouts').selectAll().where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export const insertPayout = (db: Executor, scope: Scope, values: Omit<Insertable<PayoutsTable>, 'tenant_id' | 'livemode'>) =>
  scoped(db, scope).insertInto('payouts', values).returningAll().executeTakeFirstOrThrow();

/** A conditional move: only from `pending`, so a repeated result changes nothing. */
export const settlePendingPayout = (db: Executor, scope: Scope, id: string, values: Updateable<PayoutsTable>) =>
  scoped(db, scope).updateTable('payouts').set({ ...values, next_check_at: null, updated_at: new Date() }).where('id', '=', id).where('status', '=', 'pending').returningAll().executeTakeFirst();

export function listPayouts(db: Executor, scope: Scope, f: { promoters?: readonly string[]; promoter?: string; status?: string; method?: string }, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('payouts').selectAll();
  if (f.promoters) q = q.where('promoter_id', 'in', f.promoters.length ? f.promoters : ['']);
  if (f.promoter) q = q.where('promoter_id', '=', f.promoter);
  if (f.status) q = q.where('status', '=', f.status as PayoutRow['status']);
  if (f.method) q = q.where('method', '=', f.method as PayoutRow['method']);
  return paginate(q, 'payouts.id', page);
}

/** The promoter's approved entries not yet in a payout, per currency. */
export const payableEntries = (db: Executor, scope: Scope, promoterId: string) =>
  scoped(db, scope).selectFrom('commissions').selectAll().where('promoter_id', '=', promoterId).where('status', '=', 'approved').where('payout_id', 'is', null).orderBy('id').execute();
