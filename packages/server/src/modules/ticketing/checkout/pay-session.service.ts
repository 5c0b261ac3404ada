import type { Transaction } from 'kysely';
import type { Payment } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { emitEvent } from '../../../core/events/emit-event';
import type { DB } from '../../../db/schema';
import { applyPayment } from '../payments/apply-payment';
import type { OrderRow } from '../payments/order-port';
import { recordPayment, serializePayment } from '../payments/payments.service';
import { payerHint, simulatePayment, type SimulatedOutcome } from '../payments/simulator';
import { findTestSession, scopeOfSession, type CheckoutSessionRow } from './checkout-sessions.repository';

export type PayInput = { method: 'mobile_money'; phone: string } | { method: 'card'; card_number: string };

/** Where the page sends the buyer: the booking's `redirect_url` with the order code and the outcome. */
function redirectTo(redirectUrl: string | null, code: string, outcome: string, paymentId: string): string | null {
  if (!redirectUrl) return null;
  const url = new URL(redirectUrl);
  // Booking accepts only web addresses; the page navigates to this, so nothing else ever reaches it.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.searchParams.set('code', code);
  url.searchParams.set('outcome', outcome);
  url.searchParams.set('payment', paymentId);
  return url.toString();
}

/**
 * Only a payment that succeeds completes the session: one conditional update on it decides which of two
 * racing confirmations wins; the other answers `409 checkout_session_complete` and charges nothing. A session
 * replaced by a newer one (pay-later) is refused, unless its order expired: that is a payment arriving late.
 */
async function claimSession(trx: Transaction<DB>, session: CheckoutSessionRow, order: OrderRow, outcome: SimulatedOutcome): Promise<void> {
  const payable: CheckoutSessionRow['status'][] = order.status === 'expired' ? ['open', 'expired'] : ['open'];
  const q = outcome.status === 'succeeded'
    ? trx.updateTable('checkout_sessions').set({ status: 'complete', completed_at: new Date() }).where('id', '=', session.id).where('status', 'in', payable).returning('status')
    : trx.selectFrom('checkout_sessions').select('status').where('id', '=', session.id).where('status', 'in', payable);
  if (await q.executeTakeFirst()) return;
  const now = await trx.selectFrom('checkout_sessions').select('status').where('id', '=', session.id).executeTakeFirstOrThrow();
  throw ApiError.of(now.status === 'complete' ? 'checkout_session_complete' : 'checkout_session_expired');
}

/** `POST /v1/checkout/sessions/{id}/pay`: the simulated network answers from the magic values. */
export async function paySession(ctx: AppContext, id: string, input: PayInput): Promise<{ payment: Payment; redirect_to: string | null }> {
  const session = await findTestSession(ctx.db, id);
  if (!session) throw ApiError.notFound('checkout session', id);
  const scope = scopeOfSession(session);
  const payer = input.method === 'card' ? input.card_number : input.phone;
  const outcome = simulatePayment(payer);
  return ctx.db.transaction().execute(async (trx) => {
    // The order's lock orders every payment of one order; the session's conditional update still decides.
    const order = await trx.selectFrom('orders').selectAll().where('id', '=', session.order_id).forUpdate().executeTakeFirstOrThrow();
    const event = await trx.selectFrom('ticketed_events').select('status').where('id', '=', order.event_id).executeTakeFirstOrThrow();
    const ended = order.status !== 'pending' && order.status !== 'expired';
    // A paid order's session says so; any other ended order (or a cancelled event) cannot be paid at all.
    if ((ended && order.status !== 'paid') || event.status === 'cancelled') {
      throw ApiError.of('order_not_payable', { details: { status: order.status, event_status: event.status } });
    }
    await claimSession(trx, session, order, outcome);
    if (ended) throw ApiError.of('order_not_payable', { details: { status: order.status, event_status: event.status } });
    const row = await recordPayment(trx, scope, {
      orderId: order.id,
      checkoutSessionId: session.id,
      method: input.method,
      amount: session.amount,
      currency: session.currency,
      status: outcome.status,
      failureCode: outcome.status === 'failed' ? outcome.failureCode : null,
      payerHint: payerHint(payer),
    });
    const payment = serializePayment(row);
    if (outcome.status === 'failed') {
      await emitEvent(trx, scope, { type: 'payments.payment.failed', subject: row.id, object: payment });
      return { payment, redirect_to: null };
    }
    if (outcome.status === 'pending') return { payment, redirect_to: redirectTo(session.redirect_url, order.code, 'pending', row.id) };
    const applied = await applyPayment(trx, ctx, scope, order, row.amount);
    return { payment, redirect_to: redirectTo(session.redirect_url, order.code, applied.refunded ? 'refunded' : 'succeeded', row.id) };
  });
}
