import type { Transaction } from 'kysely';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import type { RefundRow } from '../../payments';
import { countRefund } from '../analytics/rollups';
import { orderRefunded } from '../orders/order-listeners';
import type { OrderRow } from '../payments/order-port';
import { paidShareOf, unitsOfRefund, type RefundUnits } from './refund-lines';

/** The units a refund named, with the amount they were named with (the refund may be spread over payments). */
export interface NamedUnits {
  units: RefundUnits;
  amount: number;
}

/**
 * What of a refund returns a ticket order's add-ons (its product lines and shipping), which the analytics count
 * apart from ticket revenue, at most what of them is left: the paid share of the product units named (at most
 * the amount they were named with, in proportion to this refund's part of it); for an amount alone, the add-ons'
 * part of what is left to refund, so a refund of everything left returns exactly what is left of them.
 */
function addOnsShareOf(order: OrderRow, amount: number, named: NamedUnits): number {
  const left = Math.min(order.amount_add_ons ?? 0, order.amount_paid) - order.amount_add_ons_refunded;
  if (left <= 0 || amount <= 0) return 0;
  if (named.units.length === 0) {
    const leftOfOrder = order.amount_paid - order.amount_refunded;
    return amount >= leftOfOrder ? left : Math.min(left, Math.round((amount * left) / leftOfOrder));
  }
  const products = Math.min(paidShareOf(named.units.filter((u) => u.lineItem.kind === 'product')), named.amount);
  return Math.min(left, Math.round((products * amount) / named.amount));
}

/**
 * Moves a settled refund's amount out of the order's `amount_refund_pending`: into `amount_refunded` (and the
 * organizer's rollups, which count settled money only) when it succeeded; back to refundable when it failed.
 * `named`: the units the refund names, when they are not recorded on it yet (read from it otherwise).
 */
export async function settleOrderRefund(trx: Transaction<DB>, scope: Scope, order: OrderRow, refund: RefundRow, named?: NamedUnits): Promise<OrderRow> {
  const succeeded = refund.status === 'succeeded';
  // The organizer's analytics count ticket revenue only, a booking's add-ons apart.
  const addOns = succeeded && order.kind === 'ticket' && order.amount_add_ons ? addOnsShareOf(order, refund.amount, named ?? { units: await unitsOfRefund(trx, scope, refund), amount: refund.amount }) : 0;
  const moved = await scoped(trx, scope)
    .updateTable('orders')
    .set((eb) => ({
      amount_refund_pending: eb('amount_refund_pending', '-', refund.amount),
      amount_refunded: succeeded ? eb('amount_refunded', '+', refund.amount) : eb.ref('amount_refunded'),
      amount_add_ons_refunded: eb('amount_add_ons_refunded', '+', addOns),
      updated_at: new Date(),
    }))
    .where('id', '=', order.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (succeeded && moved.kind === 'ticket') await countRefund(trx, moved, refund.amount, addOns, refund.created_at);
  if (succeeded) await orderRefunded(trx, scope, moved);
  return moved;
}
