import type { Transaction } from 'kysely';
import type { Payment } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { Batcher, runByGroup } from '../../../core/batcher';
import { ApiError } from '../../../core/errors';
import { eventRequestOf, type RequestRef } from '../../../core/request-context';
import { withRequest } from '../../../core/scope';
import { emitEvent, emitPreparedEvents, envelopeOf } from '../../../core/events/emit-event';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { checkoutMethods, keepSimulatedCard, nextCheckAt, payerHint, recordPayment, recordPayments, serializePayment, startSimulatedPayment } from '../../payments';
import { payThroughProvider } from './pay-live.service';
import { applyPayment } from '../payments/apply-payment';
import { payHeldOrders, type EventRequest, type LockedOrder, type OrderRow } from '../payments/order-port';
import { findSession, sessionOrganization, lockOrdersWithCatalogue, lockOrderWithCatalogue, scopeOfSession, type CheckoutSessionRow } from './checkout-sessions.repository';

export type PayInput = { method: 'mobile_money'; phone: string } | { method: 'card'; card_number: string };
type PayBody = { method: 'mobile_money'; phone?: string } | { method: 'card'; card_number?: string };

/** What the simulator answered for a payer, before anything is written. */
type SimulatedOutcome = Awaited<ReturnType<typeof startSimulatedPayment>>;

/** Where the page sends the buyer: the booking's `redirect_url` with the order code and the outcome. */
export function redirectTo(redirectUrl: string | null, code: string, outcome: string, paymentId: string): string | null {
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
  const q = outcome.state.status === 'succeeded'
    ? trx.updateTable('checkout_sessions').set({ status: 'complete', completed_at: new Date() }).where('id', '=', session.id).where('status', 'in', payable).returning('status')
    : trx.selectFrom('checkout_sessions').select('status').where('id', '=', session.id).where('status', 'in', payable);
  if (await q.executeTakeFirst()) return;
  const now = await trx.selectFrom('checkout_sessions').select('status').where('id', '=', session.id).executeTakeFirstOrThrow();
  throw ApiError.of(now.status === 'complete' ? 'checkout_session_complete' : 'checkout_session_expired');
}

/**
 * `POST /v1/checkout/sessions/{id}/pay`: through the organization's provider configurations (live mode, or a
 * test mode whose settings list one), else the simulated network answers from the magic values.
 */
export async function paySession(ctx: AppContext, id: string, body: PayBody, request?: RequestRef, idempotencyKey?: string): Promise<PaidSession> {
  const session = await findSession(ctx.db, id);
  if (!session) throw ApiError.notFound('checkout session', id);
  const organizationId = await sessionOrganization(ctx.db, session);
  const methods = organizationId ? await checkoutMethods(ctx, scopeOfSession(session), organizationId, session.amount, session.currency) : [];
  if (organizationId && (session.livemode || methods.some((m) => m.provider !== 'simulated'))) {
    return payThroughProvider(ctx, session, organizationId, body, idempotencyKey);
  }
  const input = simulatorInput(body);
  const payer = input.method === 'card' ? input.card_number : input.phone;
  const outcome = await startSimulatedPayment(ctx, {
    paymentId: 'pay_new',
    orderCode: '',
    amount: session.amount,
    currency: session.currency,
    method: input.method,
    phone: input.method === 'mobile_money' ? input.phone : null,
    cardNumber: input.method === 'card' ? input.card_number : null,
    email: null,
    description: '',
    callbackUrl: '',
    returnUrl: '',
    expiresAt: session.expires_at,
  });
  if (outcome.state.status === 'succeeded') {
    const together = await batchOf(ctx).add({ session, input, payer, request: eventRequestOf(request) });
    if (together !== ALONE) return together;
  }
  return payAlone(ctx, session, input, payer, outcome, request);
}

type PaidSession = { payment: Payment; redirect_to: string | null; next_action: Payment['next_action'] };

/** The simulator needs the payer itself: the phone, or the card number. */
function simulatorInput(body: PayBody): PayInput {
  if (body.method === 'mobile_money' && body.phone) return { method: 'mobile_money', phone: body.phone };
  if (body.method === 'card' && body.card_number) return { method: 'card', card_number: body.card_number };
  const param = body.method === 'card' ? 'card_number' : 'phone';
  throw ApiError.of('validation_failed', { param, message: `The simulator needs \`${param}\`.`, details: { [param]: ['Required'] } });
}

/** A payment that arrived after its order expired and took the seats again. */
async function markLate(trx: Transaction<DB>, scope: Scope, id: string): Promise<Payment> {
  const row = await scoped(trx, scope).updateTable('payments').set({ late: true, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return serializePayment(row);
}

/** One payment in its own transaction: every outcome, every state of the order and session. */
function payAlone(ctx: AppContext, session: CheckoutSessionRow, input: PayInput, payer: string, outcome: SimulatedOutcome, request?: RequestRef): Promise<PaidSession> {
  const scope = withRequest(scopeOfSession(session), request);
  return ctx.db.transaction().execute(async (trx) => {
    // The order's lock orders every payment of one order; the session's conditional update still decides.
    const { order, event, ticketType } = await lockOrderWithCatalogue(trx, session.order_id);
    const ended = order.status !== 'pending' && order.status !== 'expired';
    // A paid order's session says so; any other ended order (or a cancelled event) cannot be paid at all.
    const details = event ? { status: order.status, event_status: event.status } : { status: order.status };
    if ((ended && order.status !== 'paid') || event?.status === 'cancelled') throw ApiError.of('order_not_payable', { details });
    await claimSession(trx, session, order, outcome);
    if (ended) throw ApiError.of('order_not_payable', { details });
    const { state } = outcome;
    const row = await recordPayment(trx, scope, {
      orderId: order.id,
      checkoutSessionId: session.id,
      organizationId: order.organization_id,
      customerId: order.customer_id,
      method: input.method,
      amount: session.amount,
      currency: session.currency,
      status: state.status === 'cancelled' ? 'failed' : state.status,
      failureCode: state.status === 'failed' ? state.failureCode : null,
      payerHint: payerHint(payer),
      provider: 'simulated',
      nextAction: outcome.nextAction,
      // A payer that never answers is asked about by reconciliation until it gives up (failed, `timeout`).
      nextCheckAt: state.status === 'pending' ? nextCheckAt(new Date(), 0) : null,
    });
    const payment = serializePayment(row);
    if (state.status === 'failed' || state.status === 'cancelled') {
      await emitEvent(trx, scope, { type: 'payments.payment.failed', subject: row.id, object: payment });
      return { payment, redirect_to: null, next_action: null };
    }
    if (state.status === 'pending') return { payment, redirect_to: redirectTo(session.redirect_url, order.code, 'pending', row.id), next_action: payment.next_action };
    // A subscription's simulator card is kept for its automatic renewals, as Stripe keeps a card (test mode).
    if (input.method === 'card' && order.kind === 'subscription') await keepSimulatedCard(trx, ctx, scope, row.id, input.card_number);
    const applied = await applyPayment(trx, ctx, scope, order, row.amount, event ? { event, ticketType } : undefined);
    const late = order.status === 'expired';
    const paid = late ? await markLate(trx, scope, row.id) : payment;
    await emitEvent(trx, scope, { type: 'payments.payment.succeeded', subject: row.id, object: paid });
    return { payment: paid, redirect_to: redirectTo(session.redirect_url, order.code, applied.refunded ? 'refunded' : 'succeeded', row.id), next_action: null };
  });
}

/** A confirmation that succeeded at the network, waiting to be paid with the others arriving meanwhile. */
export interface PayItem {
  session: CheckoutSessionRow;
  input: PayInput;
  payer: string;
  request: EventRequest;
}

/** Answered for a confirmation the batch leaves to `payAlone` (having written nothing for it). */
export const ALONE = Symbol('alone');

// One batch per server (its pool, secrets and clock), as grants and session opens are batched per pool.
const batches = new WeakMap<AppContext, Batcher<PayItem, PaidSession | typeof ALONE>>();

function batchOf(ctx: AppContext): Batcher<PayItem, PaidSession | typeof ALONE> {
  let batch = batches.get(ctx);
  if (!batch) {
    batch = new Batcher((items: PayItem[]) => payConfirmations(ctx, items), { maxItems: 100, maxConcurrent: 2 });
    batches.set(ctx, batch);
  }
  return batch;
}

const scopeKey = (s: CheckoutSessionRow) => `${s.tenant_id} ${s.livemode}`;

/**
 * The confirmations arriving together, one transaction per tenant and mode. A transaction that fails (a
 * deadlock, any one payment's fault) writes nothing, and each of its confirmations is then paid alone, so one
 * cannot fail the others.
 */
export function payConfirmations(ctx: AppContext, items: PayItem[]): Promise<Array<PaidSession | typeof ALONE>> {
  return runByGroup(
    items,
    (item) => scopeKey(item.session),
    (group) => payTogether(ctx, group),
    (err, group) => {
      ctx.log.warn({ err: (err as Error).message, payments: group.length }, 'payments paid together failed; paying each alone');
      return ALONE;
    },
  );
}

/**
 * Succeeded payments of one scope in one transaction, one statement per step for all of them: the orders
 * locked (in id order) with their catalogue, the sessions claimed, the payments recorded, then the orders paid
 * together (`payHeldOrders`). Only the plain case is paid here: a pending order with its seats held, no
 * coupon, no add-ons, its event not cancelled, the session's amount all that is due, the session still open, and one
 * confirmation of the order in the batch. Every other confirmation (a repeat, a late payment, a part payment,
 * a second confirmation of the same order) is answered `ALONE`, with nothing written for it, and paid by
 * `payAlone`, which gives it the answer it has always had.
 */
export async function payTogether(ctx: AppContext, items: readonly PayItem[]): Promise<Array<PaidSession | typeof ALONE>> {
  const out: Array<PaidSession | typeof ALONE> = items.map(() => ALONE);
  if (items.length === 0) return out;
  const scope = scopeOfSession(items[0]!.session);
  const seen = new Set<string>();
  const first = items.map((item) => (seen.has(item.session.order_id) ? false : (seen.add(item.session.order_id), true)));
  await ctx.db.transaction().execute(async (trx) => {
    const locked = await lockOrdersWithCatalogue(trx, [...seen]);
    const plain = items
      .map((item, i) => ({ item, i, locked: locked.get(item.session.order_id) }))
      .filter(
        (c): c is typeof c & { locked: LockedOrder } =>
          first[c.i]! &&
          c.locked !== undefined &&
          c.locked.order.status === 'pending' &&
          c.locked.order.seats_state === 'held' &&
          c.locked.order.coupon_id === null &&
          c.locked.order.amount_add_ons === null &&
          c.locked.event.status !== 'cancelled' &&
          c.locked.order.amount_paid + c.item.session.amount === c.locked.order.amount_total,
      );
    if (plain.length === 0) return;
    const claimed = new Set(
      (
        await trx
          .updateTable('checkout_sessions')
          .set({ status: 'complete', completed_at: new Date() })
          .where('id', 'in', plain.map((c) => c.item.session.id))
          .where('status', '=', 'open')
          .returning('id')
          .execute()
      ).map((r) => r.id),
    );
    const paying = plain.filter((c) => claimed.has(c.item.session.id));
    if (paying.length === 0) return;
    const payments = await recordPayments(
      trx,
      scope,
      paying.map(({ item, ...c }) => ({
        orderId: item.session.order_id,
        checkoutSessionId: item.session.id,
        organizationId: c.locked.order.organization_id,
        customerId: c.locked.order.customer_id,
        method: item.input.method,
        amount: item.session.amount,
        currency: item.session.currency,
        status: 'succeeded' as const,
        failureCode: null,
        payerHint: payerHint(item.payer),
        provider: 'simulated' as const,
      })),
    );
    await payHeldOrders(trx, ctx, scope, paying.map((c) => c.locked), paying.map((c) => c.item.request));
    const objects = payments.map(serializePayment);
    await emitPreparedEvents(
      trx,
      objects.map((object, j) => {
        const envelope = envelopeOf(scope, { type: 'payments.payment.succeeded', subject: object.id, object });
        return { scope, envelope: { ...envelope, request: paying[j]!.item.request ?? null } };
      }),
    );
    paying.forEach((c, j) => {
      const row = payments[j]!;
      out[c.i] = { payment: objects[j]!, redirect_to: redirectTo(c.item.session.redirect_url, c.locked.order.code, 'succeeded', row.id), next_action: null };
    });
  });
  return out;
}
