import { TicketedEventSchema } from '../ticketing/catalogue.schemas';
import { defineEvents, ResourcePayloadSchema } from './define-events';

export const ticketingEvents = defineEvents({
  'events.order.paid': {
    payload: ResourcePayloadSchema,
    description: 'An order was paid (used to grant a stream for a ticket with `source: ticket`, the order code as `source_ref`).',
  },
  'events.event.published': {
    payload: TicketedEventSchema,
    description: 'An event was published: public reads show it and bookings open. The event as the organizer routes show it.',
  },
});
