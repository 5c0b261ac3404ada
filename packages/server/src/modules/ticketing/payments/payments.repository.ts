import type { Selectable } from 'kysely';
import type { Payment } from '@svc/contract';
import { newId } from '../../../core/ids';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { PaymentsTable } from '../../../db/ticketing.schema';

export type PaymentRow = Selectable<PaymentsTable>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function serializePayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    object: 'payment',
    livemode: row.livemode,
    order: row.order_id,
    checkout_session: row.checkout_session_id,
    method: row.method,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    failure_code: row.failure_code,
    payer_hint: row.payer_hint,
    created_at: new Date(row.created_at).toISOString(),
    settled_at: iso(row.settled_at),
  };
}

export interface NewPayment {
  orderId: string;
  checkoutSessionId: string | null;
  method: PaymentRow['method'];
  amount: number;
  currency: string;
  status: PaymentRow['status'];
  failureCode: string | null;
  payerHint: string | null;
}

const paymentValues = (p: NewPayment) => ({
  id: newId('payment'),
  order_id: p.orderId,
  checkout_session_id: p.checkoutSessionId,
  method: p.method,
  amount: p.amount,
  currency: p.currency,
  status: p.status,
  failure_code: p.failureCode,
  payer_hint: p.payerHint,
  settled_at: p.status === 'pending' ? null : new Date(),
});

export async function insertPayment(db: Executor, scope: Scope, p: NewPayment): Promise<PaymentRow> {
  return scoped(db, scope).insertInto('payments', paymentValues(p)).returningAll().executeTakeFirstOrThrow();
}

/** Several payments in one insert; answers their rows in the same order. */
export async function insertPayments(db: Executor, scope: Scope, payments: readonly NewPayment[]): Promise<PaymentRow[]> {
  if (payments.length === 0) return [];
  const values = payments.map(paymentValues);
  const rows = await db
    .insertInto('payments')
    .values(values.map((v) => ({ ...v, tenant_id: scope.tenantId, livemode: scope.livemode })))
    .returningAll()
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return values.map((v) => byId.get(v.id)!);
}

/** The payments of an order that succeeded, oldest first (refunds go back to them). */
export const succeededPayments = (db: Executor, scope: Scope, orderId: string) =>
  scoped(db, scope)
    .selectFrom('payments')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('status', '=', 'succeeded')
    .orderBy('created_at')
    .execute();
