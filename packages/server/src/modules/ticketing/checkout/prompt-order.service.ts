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
  const open = await openCheckout(ctx, scope, orderId);
  if (!open) return null;
  const { session, organizationId } = open;
  try {
    const methods = await checkoutMethods(ctx, scope, organizationId, session.amount, session.currency);
    if (!methods.some((m) => m.method === 'mobile_money' && m.provider === 'mpesa')) return null;
    return (await payThroughProvider(ctx, session, organizationId, { method: 'mobile_money', phone }, idempotencyKey)).payment;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    ctx.log.info({ order: orderId, code: err.code }, 'no payment prompt sent for an order');
    return null;
  }
}

/**
 * A charge of the card kept by payment `savedFrom`, without the payer, for an order's open checkout (a
 * subscription's automatic renewal). `idempotencyKey` makes a repeated call the same attempt, and the provider's
 * same charge. Answers the attempt, or `null` when the checkout can no longer take one or the card cannot be charged.
 */
export async function chargeOrderSavedCard(ctx: AppContext, scope: Scope, orderId: string, savedFrom: string, idempotencyKey: string): Promise<Payment | null> {
  const open = await openCheckout(ctx, scope, orderId);
  if (!open) return null;
  try {
    return (await payThroughProvider(ctx, open.session, open.organizationId, { method: 'card', saved_from: savedFrom }, idempotencyKey)).payment;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    ctx.log.info({ order: orderId, code: err.code }, 'no saved card charged for an order');
    return null;
  }
}

async function openCheckout(ctx: AppContext, scope: Scope, orderId: string) {
  const session = await scoped(ctx.db, scope)
    .selectFrom('checkout_sessions')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('status', '=', 'open')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  const order = await scoped(ctx.db, scope).selectFrom('orders').select('organization_id').where('id', '=', orderId).executeTakeFirst();
  if (!session || !order?.organization_id) return null;
  return { session, organizationId: order.organization_id };
}
