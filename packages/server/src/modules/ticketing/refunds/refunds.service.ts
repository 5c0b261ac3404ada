import type { CursorPageQuery, Refund } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import { scoped } from '../../../core/scope';
import { listRefundObjects, refundablePayments, serializeRefund } from '../../payments';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { requireOrderAccess } from '../orders/order-access';
import type { Executor } from '../../../db/database';
import { issueRefund } from './issue-refund';
import { orderAfterRefund } from './order-after-refund';
import { holdRefundUnits, paidShareOf, refundLinesOf, reportRefundedUnits } from './refund-lines';

/** The order, if the caller may reach it: a member needs the permission in the order's organization. */
async function orderFor(ctx: AppContext, db: Executor, caller: OrganizerCaller, id: string, level: 'read' | 'write') {
  const order = isIdOf('order', id) ? await scoped(db, caller.scope).selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
  if (!order) throw ApiError.notFound('order', id);
  // Who may refund or read refunds follows the order's kind (products-api § 1.6).
  await requireOrderAccess(ctx, caller, order, level);
  return order;
}

export interface CreateRefundInput {
  amount?: number;
  reason?: string;
  payment?: string;
  manual?: boolean;
  line_items?: { id: string; quantity: number }[];
  restock?: boolean;
  metadata?: Record<string, string>;
}

/**
 * `POST /v1/orders/{id}/refunds`: returns money of one payment (the one named, else the newest with money left),
 * at most what is left of it. The simulator settles at once; a live provider's refund is `pending` until it settles.
 */
export async function createRefund(ctx: AppContext, caller: OrganizerCaller, orderId: string, input: CreateRefundInput): Promise<Refund> {
  const { scope } = caller;
  return ctx.db.transaction().execute(async (trx) => {
    const order = await orderFor(ctx, trx, caller, orderId, 'write');
    const refundable = order.amount_paid - order.amount_refunded - order.amount_refund_pending;
    if ((order.status !== 'paid' && order.status !== 'partially_refunded') || refundable <= 0) {
      throw ApiError.of('order_not_refundable', { details: { status: order.status, refundable } });
    }
    // Named units are taken on their lines first: two refunds racing for one unit count it once.
    const units = input.line_items ? await holdRefundUnits(trx, scope, order.id, input.line_items) : [];
    const restock = input.restock ?? true;
    const amount = input.amount ?? (units.length ? Math.min(paidShareOf(units), refundable) : refundable);
    if (amount <= 0) throw ApiError.of('validation_failed', { param: 'amount', message: 'Nothing was paid for these units: name an amount.' });
    // Checked again by the conditional update in issueRefund, which is what holds when refunds race.
    if (amount > refundable) throw ApiError.of('refund_amount_too_large', { param: 'amount', details: { refundable, order_refundable: refundable } });
    if (input.payment !== undefined && !isIdOf('payment', input.payment)) throw ApiError.notFound('payment', input.payment);
    const paymentId = input.payment ?? (await refundablePayments(trx, scope, order.id))[0]?.payment.id;
    if (input.payment !== undefined) {
      const own = await scoped(trx, scope).selectFrom('payments').select('id').where('id', '=', input.payment).where('order_id', '=', order.id).executeTakeFirst();
      if (!own) throw ApiError.notFound('payment', input.payment);
    }
    const issued = await issueRefund(trx, ctx, scope, order, amount, input.reason ?? null, { paymentId, manual: input.manual, metadata: input.metadata, units });
    let refund = issued.refund;
    if (units.length || !restock) {
      refund = await scoped(trx, scope)
        .updateTable('refunds')
        .set({ line_items: JSON.stringify(refundLinesOf(units)), restock })
        .where('id', '=', refund.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    if (issued.refunds.every((r) => r.status === 'succeeded')) {
      await reportRefundedUnits(trx, ctx, scope, issued.order, units, restock);
      await orderAfterRefund(trx, ctx, scope, issued.order, { restock });
    }
    return serializeRefund(refund);
  });
}

export async function listOrderRefunds(ctx: AppContext, caller: OrganizerCaller, orderId: string, page: CursorPageQuery) {
  await orderFor(ctx, ctx.db, caller, orderId, 'read');
  return listRefundObjects(ctx.db, caller.scope, { order: orderId }, page);
}
