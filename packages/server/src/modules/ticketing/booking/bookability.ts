import type { BookableReason } from '@svc/contract';
import type { EventRow, SlotRow, TicketTypeRow } from './catalogue-reads';

const MESSAGES: Record<BookableReason, string> = {
  event_not_published: 'The event is not open for booking.',
  event_ended: 'The event has ended.',
  sale_not_started: 'Sales for this ticket have not started yet.',
  sale_ended: 'Sales for this ticket have ended.',
  sold_out: 'Not enough tickets are left.',
  quantity_out_of_range: 'The quantity is outside what one order may hold.',
  slot_required: 'Choose a time slot.',
  ticket_paused: 'This ticket is not on sale at the moment.',
};

export const reasonOf = (code: BookableReason) => ({ code, message: MESSAGES[code] });

export interface BookingTarget {
  event: EventRow;
  ticketType: TicketTypeRow;
  slot: SlotRow | null;
  hasSlots: boolean;
  quantity: number;
}

/** Why this booking cannot be made now, apart from room (the hold decides that), or `null`. */
export function unbookableReason(t: BookingTarget, now: Date): BookableReason | null {
  const at = now.getTime();
  if (t.event.status !== 'published') return t.event.status === 'completed' ? 'event_ended' : 'event_not_published';
  if (new Date(t.event.ends_at).getTime() <= at) return 'event_ended';
  if (t.ticketType.status === 'paused') return 'ticket_paused';
  if (t.ticketType.sale_starts_at && t.ticketType.sale_starts_at.getTime() > at) return 'sale_not_started';
  if (t.ticketType.sale_ends_at && t.ticketType.sale_ends_at.getTime() <= at) return 'sale_ended';
  if (t.slot && new Date(t.slot.ends_at).getTime() <= at) return 'event_ended';
  if (t.hasSlots && !t.slot) return 'slot_required';
  if (t.quantity < t.ticketType.min_per_order || t.quantity > t.ticketType.max_per_order) return 'quantity_out_of_range';
  return null;
}

/** The field a reason is about, for the error's `param`. */
export const paramOf = (reason: BookableReason): string | undefined =>
  reason === 'quantity_out_of_range' ? 'quantity' : reason === 'slot_required' ? 'event_slot_id' : reason === 'event_not_published' || reason === 'event_ended' ? undefined : 'ticket_id';
