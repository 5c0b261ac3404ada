import type { Selectable, Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import type { OrdersTable } from '../../../db/ticketing.schema';

export type OrderRow = Selectable<OrdersTable>;

/**
 * The order transitions payments use, owned by the orders folder: paid (seats sold, tickets valid, stream
 * granted, messages) and released (seats and coupon back, tickets void, stream revoked).
 */
export async function payOrder(_trx: Transaction<DB>, _ctx: AppContext, _scope: Scope, _order: OrderRow): Promise<{ paid: boolean }> {
  throw new Error('orders: markOrderPaid is not merged yet');
}

export async function releaseOrderFor(
  _trx: Transaction<DB>,
  _ctx: AppContext,
  _scope: Scope,
  _order: OrderRow,
  _status: 'refunded' | 'cancelled',
): Promise<OrderRow> {
  throw new Error('orders: releaseOrder is not merged yet');
}

export async function cancelOrderFor(_trx: Transaction<DB>, _ctx: AppContext, _scope: Scope, _order: OrderRow): Promise<OrderRow> {
  throw new Error('orders: cancel is not merged yet');
}

export function orderObject(order: OrderRow): Record<string, unknown> {
  return { id: order.id, object: 'order', status: order.status };
}

