import type { BookingStoreRequest, Order } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { emitEvent } from '../../../core/events/emit-event';
import { newId } from '../../../core/ids';
import type { TenantPrincipal } from '../../../core/principal';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { jobOf, sendInTransaction } from '../../../jobs/send-in-transaction';
import { ensureBuckets, holdSeats, roomIn } from '../capacity/capacity-buckets';
import { recordIfSoldOut } from '../activity/activity-items';
import { discountOf, holdCouponUse, usableCoupon, type CouponRow } from '../capacity/coupon-uses';
import { expireOrder } from '../orders/expire-orders.job';
import { markOrderPaid, nowOf } from '../orders/order-transitions';
import { insertOrderIfCodeFree, type OrderRow } from '../orders/order-rows.service';
import { serializeOrder } from '../orders/orders.serializer';
import { publicReadsOf } from '../public/public-parts';
import { newOrderCode, newTicketSecret, ticketSecretHash } from '../tickets/ticket-secrets';
import { insertTickets } from '../tickets/ticket-rows.service';
import { paramOf, unbookableReason, type BookingTarget } from './bookability';
import { bucketsOfTarget, seatsOf } from './booking-payload';
import { buyerOf, checkAttendees, unitPriceOf, type Buyer } from './booking-input';
import { loadBookingTarget } from './booking-target';
import { SoldOutMemo } from './sold-out-memo';
import { checkoutSessionRow, checkoutUrl } from './checkout-sessions';

const MAX_AMOUNT = 2_147_483_647;

const invalid = (param: string, message: string) => ApiError.of('validation_failed', { param, message, details: { [param]: [message] } });

interface Priced {
  total: number;
  discount: number;
  coupon: CouponRow | null;
  payLater: boolean;
  expiresAt: Date | null;
}

/** Inserts the order under a fresh code (a code taken by another order of the tenant is drawn again). */
async function insertWithCode(trx: Transaction<DB>, scope: Scope, values: Omit<Parameters<typeof insertOrderIfCodeFree>[2], 'code'>): Promise<OrderRow> {
  for (let attempt = 0; ; attempt++) {
    const inserted = await insertOrderIfCodeFree(trx, scope, { ...values, code: newOrderCode() });
    if (inserted) return inserted;
    if (attempt >= 5) throw new Error('insertWithCode: no free order code');
  }
}

async function createOrder(ctx: AppContext, scope: Scope, t: BookingTarget & { buckets: readonly { id: string }[] }, body: BookingStoreRequest, buyer: Buyer, p: Priced) {
  const seats = seatsOf(t);
  const buckets = bucketsOfTarget(t);
  const now = nowOf(ctx);
  return ctx.db.transaction().execute(async (trx) => {
    const order = await insertWithCode(trx, scope, {
      id: newId('order'),
      status: 'pending',
      organization_id: t.event.organization_id,
      event_id: t.event.id,
      ticket_type_id: t.ticketType.id,
      slot_id: t.slot?.id ?? null,
      quantity: t.quantity,
      seats,
      bucket_ids: buckets.map((b) => b.id),
      coupon_id: p.coupon?.id ?? null,
      coupon_state: p.coupon ? 'held' : null,
      amount_total: p.total,
      amount_discount: p.discount,
      currency: t.event.currency,
      buyer_name: buyer.name,
      buyer_email: buyer.email,
      buyer_phone: buyer.phone,
      customer_id: buyer.customerId,
      redirect_url: body.redirect_url ?? null,
      pay_later: p.payLater,
      external_id: body.external_id ?? null,
      metadata: JSON.stringify(body.metadata ?? {}),
      expires_at: p.expiresAt,
    });
    const due = p.total > 0 && !p.payLater;
    const session = due ? checkoutSessionRow(scope, { orderId: order.id, amount: p.total, currency: order.currency, redirectUrl: order.redirect_url, expiresAt: p.expiresAt! }) : null;
    // The checkout session goes in with the tickets (a booking names at least one attendee), in one statement.
    const tickets = await insertTickets(
      session ? trx.with('new_checkout_session', (q) => q.insertInto('checkout_sessions').values(session).returning('id')) : trx,
      scope,
      body.attendees.map((a, i) => {
        const id = newId('ticket');
        const secret = newTicketSecret();
        return {
          id,
          order_id: order.id,
          event_id: t.event.id,
          ticket_type_id: t.ticketType.id,
          slot_id: t.slot?.id ?? null,
          position: i,
          first_name: a.first_name,
          last_name: a.last_name,
          email: a.email?.toLowerCase() ?? null,
          phone: a.phone ?? null,
          extra_data: JSON.stringify(a.extra_data ?? {}),
          customer_id: null,
          secret_hash: ticketSecretHash(secret),
          secret_sealed: ctx.secrets.encrypt(secret, id),
          status: 'pending_payment' as const,
          review_status: null,
          entitlement_id: null,
        };
      }),
    );
    if (p.expiresAt) {
      await sendInTransaction(trx, [jobOf(expireOrder, { tenant_id: scope.tenantId, livemode: scope.livemode, order_id: order.id }, p.expiresAt)]);
    }
    tickets.sort((a, b) => a.position - b.position);
    const created = serializeOrder(order, tickets, p.coupon?.code ?? null);
    await emitEvent(trx, scope, { type: 'events.order.created', subject: order.id, object: created });
    // The holds come last (a refusal rolls back all of the above), so the hot bucket rows stay locked for as
    // short a time as possible: from here to the commit.
    // Bucket rows are never deleted: only one the read did not find needs making.
    if (!buckets.every((b) => t.buckets.some((r) => r.id === b.id))) await ensureBuckets(trx, scope, buckets);
    const held = await holdSeats(trx, order.bucket_ids, seats);
    if (!held) throw ApiError.of('sold_out', { param: 'quantity' });
    await recordIfSoldOut(trx, order, held);
    if (p.coupon && !(await holdCouponUse(trx, p.coupon.id))) {
      throw ApiError.of('coupon_invalid', { param: 'coupon_code', message: 'This coupon has been used up.', details: { reason: 'used_up' } });
    }
    if (p.total === 0) {
      const paid = await markOrderPaid(trx, ctx, scope, order.id, { amountPaid: 0 });
      return { booking: paid.order, payment: [] as [] };
    }
    return { booking: created, payment: session ? checkoutUrl(ctx.config.baseUrl, session.id) : ([] as []) };
  });
}

/**
 * `POST /v1/events/{event}/book`: checks the booking, prices it (name-your-price amount, coupon), then holds
 * the seats and the coupon use and creates the order, its tickets and its checkout session in one transaction.
 */
export async function book(
  ctx: AppContext,
  principal: TenantPrincipal,
  eventRef: string,
  body: BookingStoreRequest,
): Promise<{ booking: Order; payment: string | [] }> {
  const scope = principal.scope;
  const now = nowOf(ctx);
  if ((body.external_id !== undefined || body.metadata !== undefined) && principal.kind !== 'secret' && principal.kind !== 'restricted') {
    throw invalid(body.external_id !== undefined ? 'external_id' : 'metadata', 'Only a secret or restricted key may set this.');
  }
  // Once the last seats are gone, the target as last read full answers the rush's refusals (see SoldOutMemo).
  const t = await publicReadsOf(ctx).soldOut.read(
    SoldOutMemo.keyOf(scope, eventRef, body.ticket_id, body.event_slot_id),
    body.quantity,
    () => loadBookingTarget(ctx.db, scope, eventRef, body),
    (read) => !roomIn(read.buckets, bucketsOfTarget(read), 1),
  );
  const reason = unbookableReason(t, now);
  if (reason) throw ApiError.of('not_bookable', { param: paramOf(reason), details: { reason }, message: `Not bookable: ${reason}.` });
  checkAttendees(t.ticketType, body.attendees, seatsOf(t));
  const subtotal = unitPriceOf(t.ticketType, body.amount) * t.quantity;
  // Amounts are 32-bit columns: a total beyond them is refused rather than failing the insert.
  if (subtotal > MAX_AMOUNT) throw invalid('quantity', `The order's total may not exceed ${MAX_AMOUNT}.`);
  const coupon = body.coupon_code ? await usableCoupon(ctx.db, scope, t.event.id, t.ticketType.id, body.coupon_code, now) : null;
  const discount = coupon ? discountOf(coupon, subtotal) : 0;
  const total = subtotal - discount;
  const payLater = total > 0 && body.pay_later === true;
  if (payLater && !t.ticketType.allow_pay_later) throw invalid('pay_later', 'This ticket cannot be paid later.');
  const buyer = await buyerOf(ctx.db, principal, body);
  // No live payments provider exists yet: a priced live booking could never be paid.
  if (total > 0 && !payLater && scope.livemode) throw ApiError.of('payments_unavailable');
  // A pay-later order keeps its seats until the event starts; a checkout holds them for the event's hold time.
  const held = new Date(now.getTime() + t.event.hold_minutes * 60_000);
  const starts = new Date(t.event.starts_at);
  const expiresAt = total === 0 ? null : payLater && starts.getTime() > held.getTime() ? starts : held;
  // A rush ends with most buyers refused: a plain read refuses them without the order's inserts and without
  // queueing behind the bucket's row lock. It can only be stale towards "room": the hold still decides.
  if (!roomIn(t.buckets, bucketsOfTarget(t), seatsOf(t))) throw ApiError.of('sold_out', { param: 'quantity' });
  try {
    return await createOrder(ctx, scope, t, body, buyer, { total, discount, coupon, payLater, expiresAt });
  } catch (err) {
    if (isUniqueViolation(err, 'orders_external_id')) throw ApiError.of('external_id_taken', { param: 'external_id' });
    throw err;
  }
}
