import type { Contract } from '@svc/contract';

/**
 * Where the contract's groups sit on the client. Most groups keep their contract name (`svc.streams`,
 * `svc.access`); the ticketing and creators groups are named for the server's modules, so the SDK gathers them
 * where a tenant looks for them: `svc.events.publish(id)`, `svc.events.ticketTypes.create(event, …)`,
 * `svc.orders.refunds.create(order, …)`. The HTTP API is unchanged; the route objects are the contract's own.
 * `svc.events` is the organizer's catalogue; the event log stays `svc.eventLog` (docs/decisions.md, "The two
 * /v1/events").
 */
export function arrange(c: Contract) {
  const { organizerEvents, ticketTypes, eventSlots, coupons, ticketingPayments, orders, creators, ...rest } = c;
  const { creator, ...creatorsRest } = creators;
  return {
    ...rest,
    events: { ...organizerEvents, cancel: ticketingPayments.eventCancel.cancel, ticketTypes, slots: eventSlots, coupons },
    orders: { ...orders, refunds: ticketingPayments.refunds, payLater: ticketingPayments.payLater },
    checkout: ticketingPayments.checkout,
    creators: { ...creator, ...creatorsRest },
  };
}

/** The contract as the client arranges it. */
export type Arranged = ReturnType<typeof arrange>;
