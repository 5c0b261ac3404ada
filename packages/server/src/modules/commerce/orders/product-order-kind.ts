import type { Order } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import type { OrderKindHandler, OrderRow, RefundedUnits, ReleaseReason } from '../../ticketing';
import { nowOf } from '../commerce-access';
import { stockFreed } from '../stock/sold-out-variants';
import { releaseStock, restockSold, sellFreeStock, sellReservedStock, type StockLine } from '../stock/stock.service';
import { grantDigitalItems, passDigitalItems, revokeDigitalItems, revokeOrderGrants } from './product-grants';
import { findProductOrder, findProductOrders, moveStockState, orderIdsInFulfillmentStatus, updateProductOrder } from './product-orders.repository';
import { serializeProductOrderFields } from './product-order-fields';

async function ownRow(trx: Transaction<DB>, scope: Scope, order: OrderRow) {
  const row = await findProductOrder(trx, scope, order.id, { forUpdate: true });
  if (!row) throw new Error(`product order ${order.id} has no commerce row`);
  return row;
}

/**
 * Commerce's part of a product order's life (products-api § 3.3–3.5), called by ticketing inside the
 * transaction that moved the order. The order's stock state moves by conditional updates, so a hook that runs
 * twice moves nothing twice.
 */
export const productOrderKind: OrderKindHandler = {
  kind: 'product',

  async paid(trx, ctx, scope, order) {
    const row = await ownRow(trx, scope, order);
    if (await moveStockState(trx, scope, order.id, 'held', 'sold')) await sellReservedStock(trx, scope, row.lines);
    await grantDigitalItems(trx, scope, order, nowOf(ctx));
    // A digital-only order has nothing to pack: it is fulfilled when paid.
    if (row.shipping_method === null && row.fulfillment_status === 'unfulfilled') {
      const now = order.paid_at ?? nowOf(ctx);
      await updateProductOrder(trx, scope, order.id, { fulfillment_status: 'fulfilled', fulfilled_at: now, updated_at: now });
    }
  },

  async released(trx, ctx, scope, order, reason: ReleaseReason) {
    const row = await ownRow(trx, scope, order);
    if (reason === 'refunded') {
      await revokeOrderGrants(trx, scope, order, nowOf(ctx));
      return;
    }
    if (await moveStockState(trx, scope, order.id, 'held', 'released')) {
      await releaseStock(trx, scope, row.lines);
      stockFreed(ctx, row.lines.map((l) => l.variant));
    }
  },

  async refunded(trx, ctx, scope, order, units: RefundedUnits) {
    const lines: StockLine[] = units.lineItems.flatMap(({ lineItem, quantity }) => {
      const product = lineItem.product as { variant?: string } | null;
      return product?.variant ? [{ variant: product.variant, quantity }] : [];
    });
    if (units.restock) {
      await restockSold(trx, scope, lines);
      stockFreed(ctx, lines.map((l) => l.variant));
    }
    await revokeDigitalItems(trx, scope, order, units.lineItems.map((u) => u.lineItem), nowOf(ctx));
  },

  async lateTakeBack(trx, ctx, scope, order) {
    const row = await ownRow(trx, scope, order);
    if (row.stock_state !== 'released') return true;
    if (!(await sellFreeStock(trx, scope, row.lines))) return 'out_of_stock';
    await moveStockState(trx, scope, order.id, 'released', 'sold');
    return true;
  },

  async serialize(db, scope, orders) {
    const rows = await findProductOrders(db, scope, orders.map((o) => o.id));
    return new Map<string, Partial<Order>>(rows.map((r) => [r.order_id, serializeProductOrderFields(r)]));
  },

  inFulfillmentStatus: orderIdsInFulfillmentStatus,

  async claimed(trx, scope, customerId, orders) {
    await passDigitalItems(trx, scope, customerId, orders, new Date());
  },
};
