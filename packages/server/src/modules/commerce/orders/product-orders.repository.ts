import { sql, type Insertable, type RawBuilder, type Updateable } from 'kysely';
import type { FulfillmentStatus, ProductOrderRow, ProductOrdersTable } from '../../../db/commerce.schema';
import type { Executor } from '../../../db/database';
import { scoped, type Scope } from '../../../core/scope';

export async function insertProductOrder(db: Executor, row: Insertable<ProductOrdersTable>) {
  await db.insertInto('product_orders').values(row).execute();
}

export async function findProductOrder(db: Executor, scope: Scope, orderId: string, opts: { forUpdate?: boolean } = {}) {
  let q = scoped(db, scope).selectFrom('product_orders').selectAll().where('order_id', '=', orderId);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findProductOrders(db: Executor, scope: Scope, orderIds: readonly string[]): Promise<ProductOrderRow[]> {
  if (orderIds.length === 0) return [];
  return scoped(db, scope).selectFrom('product_orders').selectAll().where('order_id', 'in', [...orderIds]).execute();
}

export async function updateProductOrder(db: Executor, scope: Scope, orderId: string, changes: Updateable<ProductOrdersTable>) {
  return scoped(db, scope).updateTable('product_orders').set(changes).where('order_id', '=', orderId).returningAll().executeTakeFirstOrThrow();
}

/** Moves the stock state only from `from`: answers whether this call moved it (a retried hook moves nothing). */
export async function moveStockState(db: Executor, scope: Scope, orderId: string, from: ProductOrderRow['stock_state'], to: ProductOrderRow['stock_state']) {
  const moved = await scoped(db, scope)
    .updateTable('product_orders')
    .set({ stock_state: to })
    .where('order_id', '=', orderId)
    .where('stock_state', '=', from)
    .returning('order_id')
    .executeTakeFirst();
  return moved !== undefined;
}

/** Product orders of an organization (or all) with this fulfilment status, oldest first, after `after`. */
export async function productOrdersWithStatus(db: Executor, scope: Scope, filters: { organization?: string; status: FulfillmentStatus }, after: string | null, limit: number) {
  let q = scoped(db, scope).selectFrom('product_orders').selectAll().where('fulfillment_status', '=', filters.status);
  if (filters.organization) q = q.where('organization_id', '=', filters.organization);
  if (after) q = q.where('order_id', '>', after);
  return q.orderBy('order_id').limit(limit).execute();
}

/** The ids of the scope's orders in a fulfilment status, as a subquery for the order list. */
export const orderIdsInFulfillmentStatus = (scope: Scope, status: FulfillmentStatus): RawBuilder<unknown> =>
  sql`select p.order_id from product_orders p where p.tenant_id = ${scope.tenantId} and p.livemode = ${scope.livemode} and p.fulfillment_status = ${status}`;
