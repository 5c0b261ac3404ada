import type { CheckoutSession } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { scoped } from '../../../core/scope';
import { latestSessionPayment, offeredMethods, serializePayment } from '../../payments';
import { redirectTo } from './pay-session.service';
import { scopeOfSession, type CheckoutSessionRow } from './checkout-sessions.repository';

/** Refunds the service makes of a payment it could not keep (products-api § 1.8): the buyer lands with `outcome=refunded`. */
const GIVEN_BACK = ['late_payment', 'seats_unavailable', 'order_cancelled', 'event_cancelled', 'duplicate_payment'];

/**
 * What the checkout page reads of the session's payments: the methods it offers, the newest attempt (polled
 * while `pending`), and where to send the buyer once a payment succeeded (`succeeded`, or `refunded` when a late
 * payment was given back).
 */
export async function sessionPaymentState(
  ctx: AppContext,
  session: CheckoutSessionRow,
  organizationId: string | null,
  orderCode: string,
): Promise<Pick<CheckoutSession, 'methods' | 'latest_payment' | 'redirect_to'>> {
  const scope = scopeOfSession(session);
  const methods = organizationId ? await offeredMethods(ctx, scope, organizationId, session.amount, session.currency) : [];
  const latest = await latestSessionPayment(ctx.db, scope, session.id);
  const succeeded =
    latest?.status === 'succeeded'
      ? latest
      : await scoped(ctx.db, scope).selectFrom('payments').selectAll().where('checkout_session_id', '=', session.id).where('status', '=', 'succeeded').orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  let redirect: string | null = null;
  if (succeeded) {
    const givenBack = await scoped(ctx.db, scope).selectFrom('refunds').select('id').where('payment_id', '=', succeeded.id).where('reason', 'in', GIVEN_BACK).where('status', '<>', 'failed').executeTakeFirst();
    if (givenBack || session.status === 'complete') redirect = redirectTo(session.redirect_url, orderCode, givenBack ? 'refunded' : 'succeeded', succeeded.id);
  }
  return {
    methods,
    latest_payment: latest
      ? {
          id: latest.id,
          status: latest.status,
          failure_code: latest.failure_code,
          failure_message: latest.failure_message,
          next_action: serializePayment(latest).next_action,
        }
      : null,
    redirect_to: redirect,
  };
}
