import type { BucketState } from '../capacity/capacity.service';
import { bucketIds, seatsLeft } from '../capacity/capacity.service';
import type { SlotRow } from '../booking/catalogue-reads';
import type { TicketTypeRow } from '../ticket-types/ticket-types.serializer';

export type Availability = 'available' | 'sold_out' | 'not_on_sale';

interface EventTimes {
  id: string;
  ends_at: Date;
}

/** On sale: active, inside its sale window, and the event not over. */
export function onSale(ticketType: TicketTypeRow, event: EventTimes, now: Date): boolean {
  const t = now.getTime();
  if (ticketType.status !== 'active' || t >= new Date(event.ends_at).getTime()) return false;
  if (ticketType.sale_starts_at && t < new Date(ticketType.sale_starts_at).getTime()) return false;
  return !(ticketType.sale_ends_at && t >= new Date(ticketType.sale_ends_at).getTime());
}

/**
 * What a buyer sees of a ticket type: `sold_out` when the smallest order (`min_per_order` × `admits` seats) fits
 * in no bucket it would take from, in any slot when the event has slots. Read without locks: a booking decides.
 */
export function availabilityOf(
  ticketType: TicketTypeRow,
  event: EventTimes,
  slots: readonly SlotRow[],
  buckets: ReadonlyMap<string, BucketState>,
  now: Date,
): Availability {
  if (!onSale(ticketType, event, now)) return 'not_on_sale';
  const need = ticketType.min_per_order * ticketType.admits;
  const common = Math.min(seatsLeft(buckets.get(bucketIds.event(event.id))), seatsLeft(buckets.get(bucketIds.ticketType(ticketType.id))));
  if (slots.length === 0) return common >= need ? 'available' : 'sold_out';
  const fits = slots.some(
    (slot) =>
      Math.min(
        common,
        seatsLeft(buckets.get(bucketIds.slot(slot.id))),
        seatsLeft(buckets.get(bucketIds.ticketTypeInSlot(ticketType.id, slot.id)), ticketType.quantity),
      ) >= need,
  );
  return fits ? 'available' : 'sold_out';
}

export function slotAvailabilityOf(slot: SlotRow, eventId: string, buckets: ReadonlyMap<string, BucketState>): 'available' | 'sold_out' {
  return Math.min(seatsLeft(buckets.get(bucketIds.event(eventId))), seatsLeft(buckets.get(bucketIds.slot(slot.id)))) >= 1 ? 'available' : 'sold_out';
}
