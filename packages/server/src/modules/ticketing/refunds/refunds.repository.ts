import type { Selectable } from 'kysely';
import type { CursorPageQuery, Refund } from '@svc/contract';
import { newId } from '../../../core/ids';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { RefundsTable } from '../../../db/ticketing.schema';

export type RefundRow = Selectable<RefundsTable>;

export function serializeRefund(row: RefundRow): Refund {
  return {
    id: row.id,
    object: 'refund',
    livemode: row.livemode,
    order: row.order_id,
    amount: row.amount,
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    failure_code: row.failure_code,
    created_at: new Date(row.created_at).toISOString(),
    settled_at: row.settled_at === null ? null : new Date(row.settled_at).toISOString(),
  };
}

export interface NewRefund {
  orderId: string;
  amount: number;
  currency: string;
  reason: string | null;
  status: RefundRow['status'];
  failureCode: string | null;
}

export const insertRefund = (db: Executor, scope: Scope, r: NewRefund) =>
  scoped(db, scope)
    .insertInto('refunds', {
      id: newId('refund'),
      order_id: r.orderId,
      amount: r.amount,
      currency: r.currency,
      reason: r.reason,
      status: r.status,
      failure_code: r.failureCode,
      settled_at: r.status === 'pending' ? null : new Date(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();

/**
 * Counts `amount` as refunded unless that would return more than was paid: one conditional update, so
 * refunds racing on one order can never exceed it (the loser re-reads the row the winner committed).
 */
export const reserveRefund = (db: Executor, scope: Scope, orderId: string, amount: number) =>
  scoped(db, scope)
    .updateTable('orders')
    .set((eb) => ({ amount_refunded: eb('amount_refunded', '+', amount), updated_at: new Date() }))
    .where('id', '=', orderId)
    .where((eb) => eb(eb('amount_refunded', '+', amount), '<=', eb.ref('amount_paid')))
    .returningAll()
    .executeTakeFirst();

export async function listRefunds(db: Executor, scope: Scope, orderId: string, page: CursorPageQuery) {
  const result = await paginate(scoped(db, scope).selectFrom('refunds').selectAll().where('order_id', '=', orderId), 'refunds.id', page);
  return { ...result, data: result.data.map(serializeRefund) };
}
