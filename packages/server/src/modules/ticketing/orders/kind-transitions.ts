import type { Order } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { emitEvent } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { orderEventType, orderKindHandler, type ReleaseReason } from './order-kinds';
import { transitionOrder, type OrderRow } from './orders.repository';
import { presentOrder } from './orders.serializer';

export type KindPaidResult =
  | { outcome: 'paid'; order: Order; row: OrderRow }
  /** The kind's module would not take an expired order back: the caller refunds with this reason. */
  | { outcome: 'refused'; reason: string }
  /** Paid already, cancelled or refunded: nothing changed. */
  | { outcome: 'not_payable' };

/**
 * Pays a product or subscription order (locked by the caller, its money counted): one conditional update from
 * `pending` or `expired` to `paid`, the kind's `paid` hook, then `{product}.order.paid`. An expired order is taken
 * back only if the kind's `lateTakeBack` agrees.
 */
export async function markKindOrderPaid(trx: Transaction<DB>, ctx: AppContext, scope: Scope, order: OrderRow): Promise<KindPaidResult> {
  const handler = orderKindHandler(order.kind);
  if (order.status !== 'pending' && order.status !== 'expired') return { outcome: 'not_payable' };
  if (order.status === 'expired' && handler.lateTakeBack) {
    const answer = await handler.lateTakeBack(trx, ctx, scope, order);
    if (answer !== true) return { outcome: 'refused', reason: answer };
  }
  const now = ctx.clock ? ctx.clock() : new Date();
  const paid = await transitionOrder(trx, scope, order.id, { status: ['pending', 'expired'] }, { status: 'paid', paid_at: now, expired_at: null });
  if (!paid) return { outcome: 'not_payable' };
  await handler.paid(trx, ctx, scope, paid);
  const shown = await presentOrder(trx, scope, paid, ctx);
  await emitEvent(trx, scope, { type: orderEventType(paid.kind, 'paid'), subject: paid.id, object: shown, previousAttributes: { status: order.status } });
  return { outcome: 'paid', order: shown, row: paid };
}

/** The kind's module gives back what the order held; the caller moved its status already. */
export async function releaseKindOrder(trx: Transaction<DB>, ctx: AppContext, scope: Scope, order: OrderRow, reason: ReleaseReason): Promise<void> {
  await orderKindHandler(order.kind).released(trx, ctx, scope, order, reason);
}
