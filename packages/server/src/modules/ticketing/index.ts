import type { ModuleDefinition } from '../../core/modules/module-definition';
import { bookingRouter } from './booking/booking.router';
import { orderExpiryJobs } from './orders/expire-orders.job';
import { ordersRouter } from './orders/orders.router';
import { ticketsRouter } from './tickets/tickets.router';

/**
 * Events and ticketing: the organizer's catalogue, public event pages, booking with capacity holds, orders,
 * the checkout (a simulator in test mode), payments, refunds, pay-later, tickets, and the ticket that opens
 * the stream (an Access entitlement with `source: ticket`).
 */
export const ticketingModule: ModuleDefinition = {
  name: 'ticketing',
  routers: (ctx) => ({ booking: bookingRouter(ctx), orders: ordersRouter(ctx), tickets: ticketsRouter(ctx) }),
  jobs: (ctx) => [...orderExpiryJobs(ctx)],
};
