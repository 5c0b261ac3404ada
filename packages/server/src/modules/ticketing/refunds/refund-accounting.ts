import type { Transaction } from 'kysely';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import type { RefundRow } from '../../payments';
import { countRefund } from '../analytics/rollups';
import type { OrderRow } from '../payments/order-port';

/**
 * Moves a settled refund's amount out of the order's `amount_refund_pending`: into `amount_refunded` (and the
 * organizer's rollups, which count settled money only) when it succeeded; back to refundable when it failed.
 */
export async function settleOrderRefund(trx: Transaction<DB>, scope: Scope, order: OrderRow, refund: RefundRow): Promise<OrderRow> {
  const succeeded = refund.status === 'succeeded';
  const moved = await scoped(trx, scope)
    .updateTable('orders')
    .set((eb) => ({
      amount_refund_pending: eb('amount_refund_pending', '-', refund.amount),
      amount_refunded: succeeded ? eb('amount_refunded', '+', refund.amount) : eb.ref('amount_refunded'),
      updated_at: new Date(),
    }))
    .where('id', '=', order.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  // The organizer's analytics count ticket revenue only.
  if (succeeded && moved.kind === 'ticket') await countRefund(trx, moved, refund.amount, refund.created_at);
  return moved;
}
