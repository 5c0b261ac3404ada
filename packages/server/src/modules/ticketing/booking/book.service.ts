import type { BookingStoreRequest, Order } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { emitEvent } from '../../../core/events/emit-event';
import type { TenantPrincipal } from '../../../core/principal';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { sendInTransaction } from '../../../jobs/send-in-transaction';
import { requireLivePayments } from '../../payments';
import { ensureBuckets, holdSeats, roomIn } from '../capacity/capacity-buckets';
import { recordIfSoldOut } from '../activity/activity-items';
import { discountOf, holdCouponUse, usableCoupon } from '../capacity/coupon-uses';
import { markOrderPaid, nowOf } from '../orders/order-transitions';
import { insertOrderIfCodeFree, type NewOrder, type OrderRow } from '../orders/order-rows.service';
import { presentOrder, serializeOrder } from '../orders/orders.serializer';
import { addOnsAmountOf, insertAddOnLines, planBookingAddOns } from './booking-add-ons';
import { ticketLineItem, ticketLineItemRow } from '../orders/order-rows.service';
import { publicReadsOf } from '../public/public-parts';
import { newOrderCode } from '../tickets/ticket-secrets';
import { insertTickets } from '../tickets/ticket-rows.service';
import { paramOf, unbookableReason } from './bookability';
import { bucketsOfTarget, hasAllBuckets, seatsOf } from './booking-payload';
import { buyerOf, checkAttendees, unitPriceOf } from './booking-input';
import { loadBookingTarget } from './booking-target';
import { requireEventEntry } from '../events/event-gates';
import { ALONE, bookTogether } from './book-together';
import { SoldOutMemo } from './sold-out-memo';
import { checkoutUrl } from './checkout-sessions';
import { linkBaseOf } from '../../../core/branding';
import { attributeOrder, ticketItemsOf } from '../orders/order-listeners';
import { expiryJobOf, orderRowOf, sessionRowOf, ticketRowsOf, type BookingRequest } from './new-order';

const MAX_AMOUNT = 2_147_483_647;

const invalid = (param: string, message: string) => ApiError.of('validation_failed', { param, message, details: { [param]: [message] } });

/** Inserts the order under a fresh code (a code taken by another order of the tenant is drawn again). */
async function insertWithCode(trx: Transaction<DB>, scope: Scope, values: NewOrder): Promise<OrderRow> {
  for (let attempt = 0; ; attempt++) {
    const inserted = await insertOrderIfCodeFree(trx, scope, attempt === 0 ? values : { ...values, code: newOrderCode() });
    if (inserted) return inserted;
    if (attempt >= 5) throw new Error('insertWithCode: no free order code');
  }
}

/** A booking in a transaction of its own: every kind (coupon, free, a bucket not made yet). */
async function createOrder(ctx: AppContext, scope: Scope, request: BookingRequest) {
  const { t, priced: p } = request;
  const seats = seatsOf(t);
  const buckets = bucketsOfTarget(t);
  const linkBase = await linkBaseOf(ctx, scope, t.event.organization_id, 'checkout');
  return ctx.db.transaction().execute(async (trx) => {
    const order = await insertWithCode(trx, scope, orderRowOf(request));
    const session = sessionRowOf(scope, request, order);
    const line = ticketLineItem(order, t.ticketType.name);
    // The checkout session and the order's line go in with the tickets (a booking names at least one attendee),
    // in one statement.
    const withLine = trx.with('new_line_item', (q) => q.insertInto('line_items').values(ticketLineItemRow(order, t.ticketType.name)).returning('id'));
    const tickets = await insertTickets(
      session ? withLine.with('new_checkout_session', (q) => q.insertInto('checkout_sessions').values(session).returning('id')) : withLine,
      scope,
      ticketRowsOf(ctx, request, order.id),
    );
    const expiry = expiryJobOf(scope, request, order.id);
    if (expiry) await sendInTransaction(trx, [expiry]);
    tickets.sort((a, b) => a.position - b.position);
    // Add-ons: their lines, then their stock held (variants before the event's buckets, as every writer takes them).
    if (p.addOns) {
      await insertAddOnLines(trx, order, p.addOns);
      await p.addOns.hold(trx, order.id);
    }
    const created = p.addOns
      ? await presentOrder(trx, scope, order, ctx)
      : serializeOrder(order, tickets, p.coupon?.code ?? null, [line], { checkoutUrl: session ? checkoutUrl(linkBase, session.id) : null });
    await emitEvent(trx, scope, { type: 'events.order.created', subject: order.id, object: created });
    // The holds come last (a refusal rolls back all of the above), so the hot bucket rows stay locked for as
    // short a time as possible: from here to the commit.
    // Bucket rows are never deleted: only one the read did not find needs making.
    if (!hasAllBuckets(t)) await ensureBuckets(trx, scope, buckets);
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
    return { booking: created, payment: session ? checkoutUrl(linkBase, session.id) : ([] as []) };
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
  viewer: () => Promise<string | null> = async () => null,
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
  // A coupon discounts the tickets; add-ons and their shipping are added at their own prices.
  const discount = coupon ? discountOf(coupon, subtotal) : 0;
  const addOns = await planBookingAddOns(ctx, principal, t, body);
  const amountAddOns = addOns ? addOnsAmountOf(addOns) : null;
  const total = subtotal - discount + (amountAddOns ?? 0);
  if (total > MAX_AMOUNT) throw invalid('add_ons', `The order's total may not exceed ${MAX_AMOUNT}.`);
  const payLater = total > 0 && body.pay_later === true;
  if (payLater && !t.ticketType.allow_pay_later) throw invalid('pay_later', 'This ticket cannot be paid later.');
  const buyer = await buyerOf(ctx.db, principal, body);
  // A gated event books only for an entitled customer (a guest or an unnamed buyer is not one).
  if (t.event.gate_type !== null) await requireEventEntry(ctx, scope, t.event, buyer.customerId ?? (await viewer()));
  // A priced live booking needs a payment configuration serving the organization (409 / 503 before any hold).
  if (total > 0 && !payLater && scope.livemode) await requireLivePayments(ctx, scope, t.event.organization_id);
  // A pay-later order keeps its seats until the event starts; a checkout holds them for the event's hold time.
  const held = new Date(now.getTime() + t.event.hold_minutes * 60_000);
  const starts = new Date(t.event.starts_at);
  const expiresAt = total === 0 ? null : payLater && starts.getTime() > held.getTime() ? starts : held;
  // A rush ends with most buyers refused: a plain read refuses them without the order's inserts and without
  // queueing behind the bucket's row lock. It can only be stale towards "room": the hold still decides.
  if (!roomIn(t.buckets, bucketsOfTarget(t), seatsOf(t))) throw ApiError.of('sold_out', { param: 'quantity' });
  // Only a booking that names a promoter (a code, a referral, a promoter's coupon) asks for attribution.
  const attribution = await attributeOrder(ctx.db, scope, {
    organizationId: t.event.organization_id,
    customerId: buyer.customerId,
    couponPromoterId: coupon?.promoter_id ?? null,
    referral: body.referral ?? null,
    ref: body.ref ?? null,
    items: ticketItemsOf({ event_id: t.event.id, ticket_type_id: t.ticketType.id, quantity: t.quantity, amount_total: total - (amountAddOns ?? 0) }, t.event.ends_at),
    now,
  });
  const request: BookingRequest = { t, body, buyer, priced: { total, discount, coupon, payLater, expiresAt, addOns, amountAddOns }, attribution };
  try {
    // Bookings that only hold seats and open a checkout go with the others arriving meanwhile (see book-together).
    if (!coupon && !addOns && total > 0 && hasAllBuckets(t)) {
      const together = await bookTogether(ctx, scope, request);
      if (together !== ALONE) return together;
    }
    return await createOrder(ctx, scope, request);
  } catch (err) {
    if (isUniqueViolation(err, 'orders_external_id')) throw ApiError.of('external_id_taken', { param: 'external_id' });
    throw err;
  }
}
