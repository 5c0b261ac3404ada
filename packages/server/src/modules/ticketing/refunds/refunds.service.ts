import type { CursorPageQuery, Refund } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import { scoped } from '../../../core/scope';
import { requireEventPermission, type OrganizerCaller } from '../organizer/organizer-access';
import type { Executor } from '../../../db/database';
import { issueRefund } from './issue-refund';
import { orderAfterRefund } from './order-after-refund';
import { listRefunds, serializeRefund } from './refunds.repository';

/** The order, if the caller may reach it: a member needs the permission in the order's organization. */
async function orderFor(ctx: AppContext, db: Executor, caller: OrganizerCaller, id: string, level: 'read' | 'write') {
  const order = isIdOf('order', id) ? await scoped(db, caller.scope).selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
  if (!order) throw ApiError.notFound('order', id);
  await requireEventPermission(ctx, caller, order.organization_id, level);
  return order;
}

/** `POST /v1/orders/{id}/refunds`: at most what is left to refund, settled at once by the simulator. */
export async function createRefund(ctx: AppContext, caller: OrganizerCaller, orderId: string, input: { amount?: number; reason?: string }): Promise<Refund> {
  const { scope } = caller;
  return ctx.db.transaction().execute(async (trx) => {
    const order = await orderFor(ctx, trx, caller, orderId, 'write');
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

export async function listOrderRefunds(ctx: AppContext, caller: OrganizerCaller, orderId: string, page: CursorPageQuery) {
  await orderFor(ctx, ctx.db, caller, orderId, 'read');
  return listRefunds(ctx.db, caller.scope, orderId, page);
}
