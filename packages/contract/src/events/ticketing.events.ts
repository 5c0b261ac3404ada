import { TicketedEventSchema } from '../ticketing/catalogue.schemas';
import { OrderSchema } from '../ticketing/orders.schemas';
import { PaymentSchema, RefundSchema } from '../ticketing/payments.schemas';
import { defineEvents } from './define-events';

// `data.object` is the order as the orders routes return it (tickets without their secrets), or the event as the organizer routes show it.
export const ticketingEvents = defineEvents({
  'events.order.created': { payload: OrderSchema, description: 'A booking created an order (pending, or paid at once when nothing is due).' },
  'events.order.paid': {
    payload: OrderSchema,
    description: 'An order was paid (used to grant a stream for a ticket with `source: ticket`, the order code as `source_ref`).',
  },
  'events.order.expired': { payload: OrderSchema, description: 'A pending order was not paid by `expires_at`; its seats were released.' },
  'events.order.cancelled': { payload: OrderSchema, description: 'A pending order was cancelled; its seats were released and its tickets void.' },
  'events.event.published': {
    payload: TicketedEventSchema,
    description: 'An event was published: public reads show it and bookings open. The event as the organizer routes show it.',
  },
  'events.order.refunded': {
    payload: OrderSchema,
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
