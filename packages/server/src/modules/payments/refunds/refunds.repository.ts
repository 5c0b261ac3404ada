import type { Selectable, Updateable } from 'kysely';
import type { CursorPageQuery } from '@svc/contract';
import { newId } from '../../../core/ids';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { RefundsTable } from '../../../db/ticketing.schema';

export type RefundRow = Selectable<RefundsTable>;

export interface NewRefund {
  orderId: string;
  paymentId: string | null;
  amount: number;
  currency: string;
  reason: string | null;
  status: RefundRow['status'];
  failureCode: string | null;
  source: 'provider' | 'manual' | 'external';
  provider: string | null;
  providerConfigId: string | null;
  providerReference: string | null;
  metadata?: Record<string, string>;
  nextCheckAt?: Date | null;
  orderCounted?: boolean;
}

export const insertRefund = (db: Executor, scope: Scope, r: NewRefund) =>
  scoped(db, scope)
    .insertInto('refunds', {
      id: newId('refund'),
      order_id: r.orderId,
      payment_id: r.paymentId,
      amount: r.amount,
      currency: r.currency,
      reason: r.reason,
      status: r.status,
      failure_code: r.failureCode,
      source: r.source,
      provider: r.provider,
      provider_config_id: r.providerConfigId,
      provider_reference: r.providerReference,
      metadata: JSON.stringify(r.metadata ?? {}),
      order_counted: r.orderCounted ?? true,
      next_check_at: r.status === 'pending' ? (r.nextCheckAt ?? null) : null,
      settled_at: r.status === 'pending' ? null : new Date(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();

export const findRefund = (db: Executor, scope: Scope, id: string, forUpdate = false) => {
  const q = scoped(db, scope).selectFrom('refunds').selectAll().where('id', '=', id);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
};

export const updateRefund = (db: Executor, scope: Scope, id: string, set: Updateable<RefundsTable>) =>
  scoped(db, scope)
    .updateTable('refunds')
    .set({ ...set, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

/** Counts a succeeded refund on its payment. */
export const countOnPayment = (db: Executor, scope: Scope, paymentId: string, amount: number) =>
  scoped(db, scope)
    .updateTable('payments')
    .set((eb) => ({ amount_refunded: eb('amount_refunded', '+', amount), updated_at: new Date() }))
    .where('id', '=', paymentId)
    .execute();

/** When reconciliation asks about a still-pending refund next (only while it is pending). */
export const scheduleRefundCheck = (db: Executor, id: string, at: Date) =>
  db.updateTable('refunds').set({ next_check_at: at }).where('id', '=', id).where('status', '=', 'pending').execute();

/** Pending refunds whose next check is due, locked and skipped by any other process taking them. */
export const lockDueRefunds = (db: Executor, now: Date, limit: number) =>
  db.selectFrom('refunds').selectAll().where('status', '=', 'pending').where('next_check_at', '<=', now).orderBy('next_check_at').limit(limit).forUpdate().skipLocked().execute();

export interface RefundFilters {
  order?: string;
  payment?: string;
  status?: RefundRow['status'];
  source?: RefundRow['source'];
  created?: { gt?: string; gte?: string; lt?: string; lte?: string };
}

export function listRefunds(db: Executor, scope: Scope, f: RefundFilters, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('refunds').selectAll();
  if (f.order) q = q.where('order_id', '=', f.order);
  if (f.payment) q = q.where('payment_id', '=', f.payment);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.source) q = q.where('source', '=', f.source);
  if (f.created?.gt) q = q.where('created_at', '>', new Date(f.created.gt));
  if (f.created?.gte) q = q.where('created_at', '>=', new Date(f.created.gte));
  if (f.created?.lt) q = q.where('created_at', '<', new Date(f.created.lt));
  if (f.created?.lte) q = q.where('created_at', '<=', new Date(f.created.lte));
  return paginate(q, 'refunds.id', page);
}
