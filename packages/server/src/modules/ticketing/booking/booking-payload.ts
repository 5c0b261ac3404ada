import type { AppContext } from '../../../core/context';
import { scoped, type Scope } from '../../../core/scope';
import { bucketsOf, roomIn } from '../capacity/capacity-buckets';
import { nowOf } from '../orders/order-transitions';
import { reasonOf, unbookableReason, type BookingTarget } from './bookability';
import { loadBookingTarget } from './booking-target';

const ATTENDEE_FIELDS = [
  { name: 'first_name', label: 'First name', type: 'text' as const, required: true },
  { name: 'last_name', label: 'Last name', type: 'text' as const, required: true },
  { name: 'email', label: 'Email', type: 'email' as const, required: false },
  { name: 'phone', label: 'Phone', type: 'text' as const, required: false },
];

export const seatsOf = (t: Pick<BookingTarget, 'ticketType' | 'quantity'>) => t.quantity * t.ticketType.admits;

const seatTarget = (t: BookingTarget) => ({
  event: { id: t.event.id, capacity: t.event.capacity },
  slot: t.slot ? { id: t.slot.id, capacity: t.slot.capacity } : null,
  ticketType: { id: t.ticketType.id, quantity: t.ticketType.quantity },
});
export const bucketsOfTarget = (t: BookingTarget) => bucketsOf(seatTarget(t));
/** Whether the read found every bucket the booking holds seats in (a slot's first booking makes its `ts:` row). */
export const hasAllBuckets = (t: BookingTarget & { buckets: readonly { id: string }[] }) =>
  bucketsOfTarget(t).every((b) => t.buckets.some((r) => r.id === b.id));

/** The body `POST …/book` expects for this target: placeholders where the buyer fills in. */
function expectedPayload(t: BookingTarget, slots: number): Record<string, unknown> {
  const extra = Object.fromEntries(t.ticketType.extra_fields.map((f) => [f.name, f.type === 'checkbox' ? false : null]));
  return {
    ticket_id: t.ticketType.id,
    event_slot_id: t.slot?.id ?? null,
    quantity: t.quantity,
    ...(t.ticketType.pricing_mode === 'name_your_price' && { amount: t.ticketType.flexipay_min_price ?? 0 }),
    buyer_name: null,
    buyer_email: null,
    buyer_phone: null,
    redirect_url: null,
    coupon_code: null,
    ...(t.ticketType.allow_pay_later && { pay_later: false }),
    attendees: Array.from({ length: slots }, () => ({ first_name: null, last_name: null, email: null, phone: null, extra_data: extra })),
  };
}

export async function bookingPayload(ctx: AppContext, scope: Scope, eventRef: string, q: { ticket_id: string; quantity: number; event_slot_id?: string }) {
  const t = await loadBookingTarget(ctx.db, scope, eventRef, q);
  const slots = seatsOf(t);
  let reason = unbookableReason(t, nowOf(ctx));
  if (!reason && !roomIn(t.buckets, bucketsOfTarget(t), slots)) reason = 'sold_out';
  const supportsCoupon = await scoped(ctx.db, scope).selectFrom('coupons').select('id').where('event_id', '=', t.event.id).where('active', '=', true).limit(1).executeTakeFirst();
  const tt = t.ticketType;
  return {
    ticket: {
      id: tt.id,
      name: tt.name,
      pricing_mode: tt.pricing_mode,
      price: tt.price,
      flexipay_min_price: tt.flexipay_min_price,
      flexipay_max_price: tt.flexipay_max_price,
      allow_pay_later: tt.allow_pay_later,
    },
    quantity: t.quantity,
    attendee_slots: slots,
    attendee_fields: ATTENDEE_FIELDS,
    extra_fields: tt.extra_fields.map((f) => ({ id: f.id, name: f.name, type: f.type, required: f.required, options: f.options ?? null })),
    supports_coupon: supportsCoupon !== undefined,
    bookable: reason === null,
    bookable_reason: reason ? reasonOf(reason) : null,
    sale_window: { start_sale_at: tt.sale_starts_at?.toISOString() ?? null, end_sale_at: tt.sale_ends_at?.toISOString() ?? null },
    expected_payload: expectedPayload(t, slots),
  };
}
