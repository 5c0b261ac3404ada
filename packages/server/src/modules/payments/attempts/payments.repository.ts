import type { Selectable, Updateable } from 'kysely';
import type { CursorPageQuery } from '@svc/contract';
import { newId } from '../../../core/ids';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { PaymentsTable } from '../../../db/ticketing.schema';

export type PaymentRow = Selectable<PaymentsTable>;

export interface NewPayment {
  /** Made by the caller when it must name the payment before it is stored (a provider reference). */
  id?: string;
  orderId: string;
  checkoutSessionId: string | null;
  organizationId: string | null;
  customerId: string | null;
  method: PaymentRow['method'];
  amount: number;
  currency: string;
  status: PaymentRow['status'];
  failureCode: string | null;
  payerHint: string | null;
  provider: PaymentRow['provider'];
  providerConfigId?: string | null;
  providerReference?: string | null;
  nextAction?: unknown;
  /** When reconciliation first asks the provider about a pending payment. */
  nextCheckAt?: Date | null;
  /** A live checkout's `Idempotency-Key`. */
  idempotencyKey?: string | null;
}

function paymentValues(p: NewPayment) {
  const id = p.id ?? newId('payment');
  // The simulator's reference is made from the payment's id, as the simulated provider makes it.
  const reference = p.providerReference ?? (p.provider === 'simulated' ? `sim_${id.slice(4)}` : null);
  return {
    id,
    order_id: p.orderId,
    checkout_session_id: p.checkoutSessionId,
    organization_id: p.organizationId,
    customer_id: p.customerId,
    method: p.method,
    amount: p.amount,
    currency: p.currency,
    status: p.status,
    failure_code: p.failureCode,
    payer_hint: p.payerHint,
    provider: p.provider,
    provider_config_id: p.providerConfigId ?? null,
    provider_reference: reference,
    next_action: p.nextAction === undefined || p.nextAction === null ? null : JSON.stringify(p.nextAction),
    next_check_at: p.status === 'pending' ? (p.nextCheckAt ?? null) : null,
    idempotency_key: p.idempotencyKey ?? null,
    settled_at: p.status === 'pending' ? null : new Date(),
  };
}

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
    .orderBy('id')
    .execute();

/** Whether the payer turned down a prompt for the order (`cancelled_by_user`): no more prompts for it. */
export const declinedByPayer = async (db: Executor, scope: Scope, orderId: string) =>
  (await scoped(db, scope).selectFrom('payments').select('id').where('order_id', '=', orderId).where('status', '=', 'failed').where('failure_code', '=', 'cancelled_by_user').executeTakeFirst()) !== undefined;

export const findPayment = (db: Executor, scope: Scope, id: string, forUpdate = false) => {
  const q = scoped(db, scope).selectFrom('payments').selectAll().where('id', '=', id);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
};

export const updatePayment = (db: Executor, scope: Scope, id: string, set: Updateable<PaymentsTable>) =>
  scoped(db, scope)
    .updateTable('payments')
    .set({ ...set, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

/** Pending payments whose next check is due, locked and skipped by any other process taking them. */
export const lockDuePayments = (db: Executor, now: Date, limit: number) =>
  db
    .selectFrom('payments')
    .selectAll()
    .where('status', '=', 'pending')
    .where('next_check_at', '<=', now)
    .orderBy('next_check_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();

export interface PaymentFilters {
  order?: string;
  organization?: string;
  customer?: string;
  status?: PaymentRow['status'];
  provider?: NonNullable<PaymentRow['provider']>;
  method?: PaymentRow['method'];
  late?: boolean;
  failure_code?: string;
  created?: { gt?: string; gte?: string; lt?: string; lte?: string };
}

export function listPayments(db: Executor, scope: Scope, f: PaymentFilters, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('payments').selectAll();
  if (f.order) q = q.where('order_id', '=', f.order);
  if (f.organization) q = q.where('organization_id', '=', f.organization);
  if (f.customer) q = q.where('customer_id', '=', f.customer);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.provider) q = q.where('provider', '=', f.provider);
  if (f.method) q = q.where('method', '=', f.method);
  if (f.late !== undefined) q = q.where('late', '=', f.late);
  if (f.failure_code) q = q.where('failure_code', '=', f.failure_code);
  if (f.created?.gt) q = q.where('created_at', '>', new Date(f.created.gt));
  if (f.created?.gte) q = q.where('created_at', '>=', new Date(f.created.gte));
  if (f.created?.lt) q = q.where('created_at', '<', new Date(f.created.lt));
  if (f.created?.lte) q = q.where('created_at', '<=', new Date(f.created.lte));
  return paginate(q, 'payments.id', page);
}
