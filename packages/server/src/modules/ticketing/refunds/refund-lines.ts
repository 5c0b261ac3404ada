import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import type { RefundRow } from '../../payments';
import type { LineItemRow } from '../orders/order-rows.service';
import { addOnsOf, orderKindHandler } from '../orders/order-kinds';
import type { OrderRow } from '../payments/order-port';

export type RefundUnits = { lineItem: LineItemRow; quantity: number }[];

const invalid = (param: string, message: string, details: Record<string, unknown> = {}) => ApiError.of('validation_failed', { param, message, details });

/**
 * Takes the units a refund names on the order's lines: one conditional update per line (in id order, as every
 * refund takes them), so of two refunds racing for the last unit of a line exactly one counts it and the other
 * is refused (`422`, `param: line_items.N.quantity`, `details.refundable`). Repeated ids are summed.
 */
export async function holdRefundUnits(trx: Transaction<DB>, scope: Scope, orderId: string, named: readonly { id: string; quantity: number }[]): Promise<RefundUnits> {
  const wanted = new Map<string, { quantity: number; index: number }>();
  named.forEach((l, index) => wanted.set(l.id, { quantity: (wanted.get(l.id)?.quantity ?? 0) + l.quantity, index: wanted.get(l.id)?.index ?? index }));
  const units: RefundUnits = [];
  for (const [id, { quantity, index }] of [...wanted].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const taken = await scoped(trx, scope)
      .updateTable('line_items')
      .set((eb) => ({ quantity_refunded: eb('quantity_refunded', '+', quantity), updated_at: new Date() }))
      .where('id', '=', id)
      .where('order_id', '=', orderId)
      .where((eb) => eb(eb('quantity_refunded', '+', quantity), '<=', eb.ref('quantity')))
      .returningAll()
      .executeTakeFirst();
    if (taken) {
      units.push({ lineItem: taken, quantity });
      continue;
    }
    const line = await scoped(trx, scope).selectFrom('line_items').select(['quantity', 'quantity_refunded']).where('id', '=', id).where('order_id', '=', orderId).executeTakeFirst();
    if (!line) throw invalid(`line_items.${index}.id`, 'No such line item in this order.');
    const refundable = line.quantity - line.quantity_refunded;
    throw invalid(`line_items.${index}.quantity`, `At most ${refundable} unit(s) of this line are left to refund.`, { refundable });
  }
  return units;
}

/** The paid share of the units: each line's total spread over its units (rounded down, never more than paid). */
export const paidShareOf = (units: RefundUnits) => units.reduce((sum, u) => sum + Math.floor((u.lineItem.amount_total * u.quantity) / u.lineItem.quantity), 0);

/** A refund's units as the refund records them. */
export const refundLinesOf = (units: RefundUnits) => units.map((u) => ({ line_item: u.lineItem.id, quantity: u.quantity }));

/** A pending refund that failed gives its units back to its lines. */
export async function freeRefundUnits(trx: Transaction<DB>, scope: Scope, refund: RefundRow): Promise<void> {
  for (const l of [...(refund.line_items ?? [])].sort((a, b) => (a.line_item < b.line_item ? -1 : 1))) {
    await scoped(trx, scope)
      .updateTable('line_items')
      .set((eb) => ({ quantity_refunded: eb('quantity_refunded', '-', l.quantity), updated_at: new Date() }))
      .where('id', '=', l.line_item)
      .where('quantity_refunded', '>=', l.quantity)
      .execute();
  }
}

/** The units a succeeded (formerly pending) refund recorded, with their lines as they are now. */
export async function unitsOfRefund(trx: Transaction<DB>, scope: Scope, refund: RefundRow): Promise<RefundUnits> {
  const recorded = refund.line_items ?? [];
  if (recorded.length === 0) return [];
  const lines = await scoped(trx, scope).selectFrom('line_items').selectAll().where('id', 'in', recorded.map((l) => l.line_item)).execute();
  const byId = new Map(lines.map((l) => [l.id, l]));
  return recorded.flatMap((l) => (byId.has(l.line_item) ? [{ lineItem: byId.get(l.line_item)!, quantity: l.quantity }] : []));
}

/** Every unit of the order not refunded yet is counted refunded (the order is refunded in full); answers them. */
export async function refundRemainingUnits(trx: Transaction<DB>, scope: Scope, orderId: string): Promise<RefundUnits> {
  const open = await scoped(trx, scope).selectFrom('line_items').selectAll().where('order_id', '=', orderId).whereRef('quantity_refunded', '<', 'quantity').orderBy('id').forUpdate().execute();
  if (open.length === 0) return [];
  const moved = await scoped(trx, scope)
    .updateTable('line_items')
    .set((eb) => ({ quantity_refunded: eb.ref('quantity'), updated_at: new Date() }))
    .where('id', 'in', open.map((l) => l.id))
    .returningAll()
    .execute();
  const byId = new Map(moved.map((l) => [l.id, l]));
  return open.map((l) => ({ lineItem: byId.get(l.id) ?? l, quantity: l.quantity - l.quantity_refunded }));
}

/**
 * Tells a product or subscription order's module of units refunded, and commerce of a ticket order's add-on units
 * (ticket units are not reported: their seats go back in full refunds only).
 */
export async function reportRefundedUnits(trx: Transaction<DB>, ctx: AppContext, scope: Scope, order: OrderRow, units: RefundUnits, restock: boolean): Promise<void> {
  if (units.length === 0) return;
  if (order.kind === 'ticket') {
    const products = units.filter((u) => u.lineItem.kind === 'product');
    if (products.length) await addOnsOf(order)?.refunded?.(trx, ctx, scope, order, { lineItems: products, restock });
    return;
  }
  await orderKindHandler(order.kind).refunded?.(trx, ctx, scope, order, { lineItems: units, restock });
}
