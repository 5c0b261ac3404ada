import type { BookingStoreRequest } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { OrderAttribution } from '../../../db/ticketing.schema';
import { jobOf } from '../../../jobs/send-in-transaction';
import type { CouponRow } from '../capacity/coupon-uses';
import { expireOrder } from '../orders/expire-orders.job';
import type { NewOrder } from '../orders/order-rows.service';
import type { PlannedAddOns } from '../orders/order-kinds';
import { newOrderCode, newTicketSecret, ticketSecretHash } from '../tickets/ticket-secrets';
import type { NewTicket } from '../tickets/ticket-rows.service';
import { bucketsOfTarget, seatsOf } from './booking-payload';
import type { Buyer } from './booking-input';
import { checkoutSessionRow } from './checkout-sessions';
import type { ReadTarget } from './sold-out-memo';

/** What pricing decided for a booking. */
export interface Priced {
  total: number;
  discount: number;
  coupon: CouponRow | null;
  payLater: boolean;
  expiresAt: Date | null;
  /** Products added to the booking, checked and priced (`null`: none). */
  addOns?: PlannedAddOns | null;
  /** What the add-ons' lines and shipping add to `total`; `null` without add-ons. */
  amountAddOns?: number | null;
}

/** The rows a booking writes, whether it is taken alone or with the bookings arriving together. */
export interface BookingRequest {
  /** The target as read, with its buckets' state. */
  t: ReadTarget;
  body: BookingStoreRequest;
  buyer: Buyer;
  priced: Priced;
  /** The promoter who brought the order, when one did. */
  attribution?: OrderAttribution | null;
}

/** The order's row, pending, under a freshly drawn code. */
export function orderRowOf({ t, body, buyer, priced: p, attribution }: BookingRequest): NewOrder & { id: string } {
  return {
    id: newId('order'),
    code: newOrderCode(),
    status: 'pending',
    organization_id: t.event.organization_id,
    event_id: t.event.id,
    ticket_type_id: t.ticketType.id,
    slot_id: t.slot?.id ?? null,
    quantity: t.quantity,
    seats: seatsOf(t),
    bucket_ids: bucketsOfTarget(t).map((b) => b.id),
    coupon_id: p.coupon?.id ?? null,
    coupon_state: p.coupon ? 'held' : null,
    amount_total: p.total,
    amount_discount: p.discount,
    amount_shipping: p.addOns?.amountShipping ?? 0,
    amount_add_ons: p.amountAddOns ?? null,
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
    attribution: attribution ? JSON.stringify(attribution) : null,
  };
}

/** One ticket per attendee, pending payment, each with its secret hashed and sealed. */
export function ticketRowsOf(ctx: AppContext, { t, body }: BookingRequest, orderId: string): NewTicket[] {
  return body.attendees.map((a, i) => {
    const id = newId('ticket');
    const secret = newTicketSecret();
    return {
      id,
      order_id: orderId,
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
  });
}

/** The checkout session of an order paid at checkout now (`null` for a free or pay-later order). */
export function sessionRowOf(scope: Scope, { priced: p }: BookingRequest, order: { id: string; currency: string; redirect_url: string | null }) {
  const due = p.total > 0 && !p.payLater;
  return due ? checkoutSessionRow(scope, { orderId: order.id, amount: p.total, currency: order.currency, redirectUrl: order.redirect_url, expiresAt: p.expiresAt! }) : null;
}

/** The job that gives the seats back if the order is still unpaid when its hold ends (none for a free order). */
export const expiryJobOf = (scope: Scope, { priced: p }: BookingRequest, orderId: string) =>
  p.expiresAt ? jobOf(expireOrder, { tenant_id: scope.tenantId, livemode: scope.livemode, order_id: orderId }, p.expiresAt) : null;
