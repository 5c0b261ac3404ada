import type { Transaction } from 'kysely';
import type { Payment } from '@svc/contract';
import { LIMITS } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { DB } from '../../../db/schema';
import { serializePayment, startCheckoutPayment } from '../../payments';
import { scopeOfSession, type CheckoutSessionRow } from './checkout-sessions.repository';

export type LivePayInput = { method: 'mobile_money'; phone?: string } | { method: 'card'; card_number?: string; saved_from?: string };

export interface LivePaid {
  payment: Payment;
  redirect_to: string | null;
  next_action: Payment['next_action'];
}

const invalid = (param: string, message: string) => ApiError.of('validation_failed', { param, message, details: { [param]: [message] } });

/** Under the session's lock: only an open session of a pending order, its event not cancelled, takes a new attempt. */
async function lockPayable(trx: Transaction<DB>, session: CheckoutSessionRow): Promise<void> {
  const s = await trx.selectFrom('checkout_sessions').select('status').where('id', '=', session.id).forUpdate().executeTakeFirstOrThrow();
  if (s.status === 'complete') throw ApiError.of('checkout_session_complete');
  const o = await trx
    .selectFrom('orders as o')
    // Only a ticket order has an event (whose cancellation stops payment).
    .leftJoin('ticketed_events as e', 'e.id', 'o.event_id')
    .select(['o.status', 'e.status as event_status'])
    .where('o.id', '=', session.order_id)
    .executeTakeFirstOrThrow();
  if (o.status !== 'pending' || o.event_status === 'cancelled') throw ApiError.of('order_not_payable', { details: { status: o.status, event_status: o.event_status } });
  if (s.status === 'expired') throw ApiError.of('checkout_session_expired');
}

/**
 * `POST /v1/checkout/sessions/{id}/pay` through the organization's provider configurations (live mode, or test
 * mode whose settings list a sandbox one): the payments module starts the attempt at the provider; the order is
 * paid only when the provider confirms (a notification, the return page's query, or reconciliation).
 */
export async function payThroughProvider(ctx: AppContext, session: CheckoutSessionRow, organizationId: string, input: LivePayInput, idempotencyKey: string | undefined): Promise<LivePaid> {
  if (session.livemode && input.method === 'card' && input.card_number !== undefined) {
    throw invalid('card_number', "In live mode card details are typed on the provider's page, never sent here.");
  }
  if (idempotencyKey === undefined && session.livemode) throw ApiError.of('idempotency_key_required', { param: 'Idempotency-Key' });
  if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > LIMITS.idempotency.maxKeyLength)) {
    throw ApiError.of('idempotency_key_invalid', { param: 'Idempotency-Key' });
  }
  const order = await ctx.db
    .selectFrom('orders')
    .select(['id', 'code', 'kind', 'customer_id', 'buyer_email', 'expires_at'])
    .where('id', '=', session.order_id)
    .executeTakeFirstOrThrow();
  const scope = scopeOfSession(session);
  const { payment, nextAction } = await startCheckoutPayment(ctx, scope, {
    checkoutSessionId: session.id,
    orderId: order.id,
    orderCode: order.code,
    organizationId,
    customerId: order.customer_id,
    amount: session.amount,
    currency: session.currency,
    email: order.buyer_email,
    description: order.code.slice(0, 13),
    expiresAt: new Date(order.expires_at ?? session.expires_at),
    method: input.method,
    phone: input.method === 'mobile_money' ? (input.phone ?? null) : null,
    idempotencyKey: idempotencyKey ?? null,
    returnUrl: `${ctx.config.baseUrl.replace(/\/+$/, '')}/checkout/${session.id}/return`,
    // A subscription's card is kept for its automatic renewals (the renewal then charges it without the fan).
    saveCard: order.kind === 'subscription',
    savedFrom: input.method === 'card' ? (input.saved_from ?? null) : null,
    lockSession: (trx) => lockPayable(trx, session),
  });
  return { payment: serializePayment(payment), redirect_to: null, next_action: nextAction };
}
