import type { ModuleDefinition } from '../../core/modules/module-definition';

/**
 * Events and ticketing: the organizer's catalogue, public event pages, booking with capacity holds, orders,
 * the checkout (a simulator in test mode), payments, refunds, pay-later, tickets, and the ticket that opens
 * the stream (an Access entitlement with `source: ticket`).
 */
export const ticketingModule: ModuleDefinition = {
  name: 'ticketing',
};
