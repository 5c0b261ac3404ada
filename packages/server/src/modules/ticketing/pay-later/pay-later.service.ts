import type { z } from 'zod';
import type { PayLaterResultSchema } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { requireLivePayments } from '../../payments';
import { scoped, type Scope } from '../../../core/scope';
import { checkoutUrl, openSession } from '../checkout/checkout-sessions.service';

type PayLaterResult = z.infer<typeof PayLaterResultSchema>;

/** How long a pay-later payment's checkout stays open when the order itself does not expire. */
const SESSION_MINUTES = 60;

/**
 * `POST /v1/events/booking/pay-later/{fixed|open}/{code}`: opens a checkout session for the balance
 * (`fixed`) or an instalment (`open`, at least the ticket type's flexipay minimum unless less is left).
 * The order is paid when the payments that succeeded reach `amount_total` (apply-payment.ts).
 */
export async function payLater(ctx: AppContext, scope: Scope, code: string, mode: 'fixed' | 'open', amount?: number): Promise<PayLaterResult> {
  return ctx.db.transaction().execute(async (trx) => {
    const order = await scoped(trx, scope).selectFrom('orders').selectAll().where('code', '=', code.toUpperCase()).forUpdate().executeTakeFirst();
    if (!order) throw ApiError.notFound('order', code);
    const due = order.amount_total - order.amount_paid;
    if (!order.pay_later) throw ApiError.of('pay_later_not_allowed', { message: 'This order was not booked to pay later.' });
    if (order.status === 'paid' || order.status === 'partially_refunded' || order.status === 'refunded') {
      return { status: order.status, paid: true, amount_due: 0, payment: [] };
    }
    if (order.status !== 'pending') throw ApiError.of('order_not_payable', { details: { status: order.status } });
    const event = await trx.selectFrom('ticketed_events').select('status').where('id', '=', order.event_id).executeTakeFirstOrThrow();
    if (event.status === 'cancelled') throw ApiError.of('order_not_payable', { details: { event_status: 'cancelled' } });
    if (due <= 0) return { status: order.status, paid: true, amount_due: 0, payment: [] };
    let charge = due;
    if (mode === 'open' && amount !== undefined) {
      const type = await trx.selectFrom('ticket_types').select('flexipay_min_price').where('id', '=', order.ticket_type_id).executeTakeFirstOrThrow();
      const minimum = Math.min(type.flexipay_min_price ?? 1, due);
      if (amount < minimum || amount > due) {
        throw ApiError.of('validation_failed', {
          param: 'amount',
          message: `The amount must be between ${minimum} and ${due} (what is left to pay).`,
          details: { amount: [`between ${minimum} and ${due}`] },
        });
      }
      charge = amount;
    }
    // Live mode takes payments through the organization's configurations (the same answers as a priced live booking).
    if (scope.livemode) await requireLivePayments(ctx, scope, order.organization_id);
    const sessionId = await openSession(trx, scope, {
      orderId: order.id,
      amount: charge,
      currency: order.currency,
      redirectUrl: order.redirect_url,
      expiresAt: order.expires_at ?? new Date(Date.now() + SESSION_MINUTES * 60_000),
    });
    return { status: order.status, paid: false, amount_due: due, payment: checkoutUrl(ctx.config.baseUrl, sessionId) };
  });
}
