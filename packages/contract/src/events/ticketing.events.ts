import { TicketedEventSchema } from '../ticketing/catalogue.schemas';
import { PaymentSchema, RefundSchema } from '../ticketing/payments.schemas';
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
  'events.order.refunded': {
    payload: ResourcePayloadSchema,
    description: 'Everything paid for an order was returned (a refund, or the event was cancelled): its seats are released, its tickets void and its stream access revoked.',
  },
  'events.event.cancelled': {
    payload: TicketedEventSchema,
    description: 'An event was cancelled; its pending orders are cancelled and its paid ones refunded in full after it.',
  },
  'payments.payment.failed': {
    payload: PaymentSchema,
    description: 'A payment failed (`failure_code`); the order stays `pending` and can be paid again until it expires.',
  },
  'payments.refund.succeeded': {
    payload: RefundSchema,
    description: 'A refund was settled: the money went back to the payer.',
  },
  'payments.refund.failed': {
    payload: RefundSchema,
    description: 'A refund could not be settled (`failure_code`); the amount stays refundable.',
  },
});
