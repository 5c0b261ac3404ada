import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { BookingTarget } from './bookability';
import { eventHasSlots, findEventByRef, findSlot, findTicketType } from './catalogue-reads';

/** The event, ticket type and slot a booking names; `404` (with `param`) for any that is not the event's. */
export async function loadBookingTarget(
  db: Executor,
  scope: Scope,
  eventRef: string,
  q: { ticket_id: string; quantity: number; event_slot_id?: string | null },
): Promise<BookingTarget> {
  const event = await findEventByRef(db, scope, eventRef);
  if (!event) throw ApiError.of('resource_not_found', { message: `No such event: '${eventRef}'.`, param: 'event' });
  const ticketType = await findTicketType(db, scope, event.id, q.ticket_id);
  if (!ticketType) throw ApiError.of('resource_not_found', { message: `No such ticket type for this event: '${q.ticket_id}'.`, param: 'ticket_id' });
  const slot = q.event_slot_id ? await findSlot(db, scope, event.id, q.event_slot_id) : null;
  if (q.event_slot_id && !slot) throw ApiError.of('resource_not_found', { message: `No such slot for this event: '${q.event_slot_id}'.`, param: 'event_slot_id' });
  return { event, ticketType, slot: slot ?? null, hasSlots: slot ? true : await eventHasSlots(db, scope, event.id), quantity: q.quantity };
}
