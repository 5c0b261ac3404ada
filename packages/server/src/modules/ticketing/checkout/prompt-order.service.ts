import type { Payment } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { scoped, type Scope } from '../../../core/scope';
import { checkoutMethods } from '../../payments';
import { payThroughProvider } from './pay-live.service';

/**
 * A payment prompt the service sends by itself for an order's open checkout (a subscription's renewal): an
 * M-Pesa STK push to `phone`, when M-Pesa serves the order's mobile money; otherwise nothing (`null`: the
 * simulator and card providers do not prompt). `idempotencyKey` makes a repeated call the same attempt. A
 * checkout that can no longer take a payment (paid, expired, a prompt still fresh) answers `null` too.
 */
export async function promptOrderPayment(ctx: AppContext, scope: Scope, orderId: string, phone: string, idempotencyKey: string): Promise<Payment | null> {
  const session = await scoped(ctx.db, scope)
    .selectFrom('checkout_sessions')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('status', '=', 'open')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  const order = await scoped(ctx.db, scope).selectFrom('orders').select('organization_id').where('id', '=', orderId).executeTakeFirst();
  if (!session || !order?.organization_id) return null;
  try {
    const methods = await checkoutMethods(ctx, scope, order.organization_id, session.amount, session.currency);
    if (!methods.some((m) => m.method === 'mobile_money' && m.provider === 'mpesa')) return null;
    return (await payThroughProvider(ctx, session, order.organization_id, { method: 'mobile_money', phone }, idempotencyKey)).payment;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    ctx.log.info({ order: orderId, code: err.code }, 'no payment prompt sent for an order');
    return null;
  }
}
