import type { CursorPageQuery, Refund } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import { issueRefund } from './issue-refund';
import { orderAfterRefund } from './order-after-refund';
import { listRefunds, serializeRefund } from './refunds.repository';

async function orderExists(db: Executor, scope: Scope, id: string) {
  const found = isIdOf('order', id) && (await scoped(db, scope).selectFrom('orders').select('id').where('id', '=', id).executeTakeFirst());
  if (!found) throw ApiError.notFound('order', id);
}

/** `POST /v1/orders/{id}/refunds`: at most what is left to refund, settled at once by the simulator. */
export async function createRefund(ctx: AppContext, scope: Scope, orderId: string, input: { amount?: number; reason?: string }): Promise<Refund> {
  if (!isIdOf('order', orderId)) throw ApiError.notFound('order', orderId);
  return ctx.db.transaction().execute(async (trx) => {
    const order = await scoped(trx, scope).selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
    if (!order) throw ApiError.notFound('order', orderId);
    const refundable = order.amount_paid - order.amount_refunded;
    if ((order.status !== 'paid' && order.status !== 'partially_refunded') || refundable <= 0) {
      throw ApiError.of('order_not_refundable', { details: { status: order.status, refundable } });
    }
    const amount = input.amount ?? refundable;
    // Checked again by the conditional update in issueRefund, which is what holds when refunds race.
    if (amount > refundable) throw ApiError.of('refund_amount_too_large', { param: 'amount', details: { refundable } });
    const issued = await issueRefund(trx, scope, order, amount, input.reason ?? null);
    if (issued.refund.status === 'succeeded') await orderAfterRefund(trx, ctx, scope, issued.order);
    return serializeRefund(issued.refund);
  });
}

export async function listOrderRefunds(db: Executor, scope: Scope, orderId: string, page: CursorPageQuery) {
  await orderExists(db, scope, orderId);
  return listRefunds(db, scope, orderId, page);
}
