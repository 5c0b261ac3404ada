import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { issueRefund } from '../refunds/issue-refund';
import { markKindOrderPaid } from '../orders/kind-transitions';
import { payOrder, type OrderCatalogue, type OrderRow } from './order-port';

/**
 * Counts a succeeded payment on its order (locked by the caller; with its event and ticket type when the
 * caller read them with the lock). A product or subscription order is paid through its kind's module, which may
 * refuse an expired order back (the payment is then refunded with its reason). Once `amount_paid` reaches `amount_total`
 * the order is paid: exactly once, by the orders folder's conditional update. A payment arriving after the
 * order expired takes the seats again if it can; if it cannot, everything paid is refunded at once.
 */
export async function applyPayment(
  trx: Transaction<DB>,
  ctx: AppContext,
  scope: Scope,
  order: OrderRow,
  amount: number,
  catalogue?: OrderCatalogue,
): Promise<{ order: OrderRow; refunded: boolean }> {
  const counted = await scoped(trx, scope)
    .updateTable('orders')
    .set((eb) => ({ amount_paid: eb('amount_paid', '+', amount), updated_at: new Date() }))
    .where('id', '=', order.id)
    .where('status', 'in', ['pending', 'expired'])
    .where((eb) => eb(eb('amount_paid', '+', amount), '<=', eb.ref('amount_total')))
    .returningAll()
    .executeTakeFirst();
  if (!counted) throw ApiError.of('order_not_payable', { details: { status: order.status } });
  if (counted.amount_paid < counted.amount_total) return { order: counted, refunded: false };
  let reason = 'seats_unavailable';
  if (counted.kind === 'ticket') {
    const { paid, reason: why } = await payOrder(trx, ctx, scope, counted, catalogue);
    if (paid) return { order: counted, refunded: false };
    reason = why ?? reason;
  } else {
    const result = await markKindOrderPaid(trx, ctx, scope, counted);
    if (result.outcome === 'paid') return { order: result.row, refunded: false };
    reason = result.outcome === 'refused' ? result.reason : 'duplicate_payment';
  }
  const refundable = counted.amount_paid - counted.amount_refunded;
  const issued = await issueRefund(trx, ctx, scope, counted, refundable, reason);
  return { order: issued.order, refunded: issued.refund.status === 'succeeded' };
}
