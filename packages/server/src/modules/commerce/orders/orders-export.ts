import { stringify } from 'csv-stringify/sync';
import type { FulfillmentStatus } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import type { ProductOrderRow } from '../../../db/commerce.schema';
import { findOrdersByIds, lineItemsOfOrders, type OrderRow } from '../../ticketing';
import { productOrdersWithStatus } from './product-orders.repository';

const BATCH = 500;
const COLUMNS = [
  'order_code', 'order_id', 'paid_at', 'buyer_name', 'buyer_email', 'buyer_phone', 'shipping_method', 'ship_to_name', 'ship_to_phone',
  'line1', 'line2', 'city', 'region', 'postal_code', 'country', 'instructions', 'sku', 'item', 'quantity', 'fulfillment_status',
] as const;

/** A cell a spreadsheet would run as a formula is prefixed with `'`, so it is shown as text. */
const escapeCell = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

function rowsOf(own: ProductOrderRow, order: OrderRow, lines: Awaited<ReturnType<typeof lineItemsOfOrders>>) {
  const a = own.shipping_address;
  return (lines.get(order.id) ?? [])
    .filter((l) => l.kind === 'product' && l.quantity > l.quantity_refunded)
    .map((l) => [
      order.code, order.id, order.paid_at ? new Date(order.paid_at).toISOString() : '', order.buyer_name, order.buyer_email, order.buyer_phone,
      own.shipping_method ?? '', a?.name, a?.phone, a?.line1, a?.line2, a?.city, a?.region, a?.postal_code, a?.country, a?.instructions,
      (l.product as { sku?: string } | null)?.sku ?? '', l.description, l.quantity - l.quantity_refunded, own.fulfillment_status,
    ]);
}

/**
 * The CSV of paid product orders with this fulfilment status, oldest first, one row per line with units left
 * after refunds: what a packer needs. Read in keyset batches.
 */
export async function* productOrdersCsv(ctx: AppContext, scope: Scope, filters: { organization?: string; status: FulfillmentStatus }) {
  yield stringify([], { header: true, columns: [...COLUMNS] });
  let after: string | null = null;
  for (;;) {
    const own = await productOrdersWithStatus(ctx.db, scope, filters, after, BATCH);
    if (own.length === 0) return;
    after = own.at(-1)!.order_id;
    const orders = new Map((await findOrdersByIds(ctx.db, scope, own.map((o) => o.order_id))).map((o) => [o.id, o]));
    const paid = own.filter((o) => ['paid', 'partially_refunded'].includes(orders.get(o.order_id)?.status ?? ''));
    const lines = await lineItemsOfOrders(ctx.db, scope, paid.map((o) => o.order_id));
    const rows = paid.flatMap((o) => rowsOf(o, orders.get(o.order_id)!, lines));
    if (rows.length > 0) yield stringify(rows, { cast: { string: escapeCell } });
    if (own.length < BATCH) return;
  }
}
