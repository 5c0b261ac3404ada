import type { Executor } from '../../../db/database';
import type { Scope } from '../../../core/scope';
import { scoped } from '../../../core/scope';
import type { AppContext } from '../../../core/context';
import type { StartPaymentInput, StartPaymentResult } from '../provider';
import { simulatedProvider } from '../providers/provider-for';

// What the orders' product uses of payment rows: recording attempts, and the ones refunds go back to.
export { insertPayment as recordPayment, insertPayments as recordPayments, succeededPayments, type NewPayment, type PaymentRow } from './payments.repository';
// Reconciliation takes the due ones.
export { declinedByPayer, findPayment, lockDuePayments } from './payments.repository';
export { serializePayment } from './payments.serializer';
export { nextCheckAt } from './check-schedule';

/** The simulator's answer for a payer: pure, so a caller may ask before it opens its transaction. */
export const startSimulatedPayment = (ctx: AppContext, input: StartPaymentInput): Promise<StartPaymentResult> => simulatedProvider(ctx).startPayment(input);

/**
 * What is left to refund of each succeeded payment of an order (its amount less its succeeded and pending
 * refunds), newest first: the order in which refunds the service makes are spread over payments.
 */
export async function refundablePayments(db: Executor, scope: Scope, orderId: string) {
  const rows = await scoped(db, scope)
    .selectFrom('payments')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('status', '=', 'succeeded')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  if (rows.length === 0) return [];
  const taken = await scoped(db, scope)
    .selectFrom('refunds')
    .select(['payment_id', (eb) => eb.fn.sum<string>('amount').as('amount')])
    .where('order_id', '=', orderId)
    .where('status', 'in', ['pending', 'succeeded'])
    .where('payment_id', 'is not', null)
    .groupBy('payment_id')
    .execute();
  const byPayment = new Map(taken.map((t) => [t.payment_id, Number(t.amount)]));
  return rows.map((payment) => ({ payment, refundable: payment.amount - (byPayment.get(payment.id) ?? 0) })).filter((p) => p.refundable > 0);
}
