import { initContract } from '@ts-rest/core';
import { platformContract } from './platform/platform.contract';
import { keysContract } from './platform/keys.contract';
import { operatorContract } from './platform/operator.contract';
import { webhookEndpointsContract } from './platform/webhook-endpoints.contract';
import { eventLogContract } from './platform/event-log.contract';
import { streamsContract } from './streams';
import { accessContract } from './access';
import { identityContract } from './identity';
import { customersContract } from './customers/customers.contract';
import { organizationsContract } from './organizations/organizations.contract';
import { organizerEventsContract } from './ticketing/organizer-events.contract';
import { couponsContract, eventSlotsContract, ticketTypesContract } from './ticketing/event-catalogue.contract';
import { ticketingPaymentsContract } from './ticketing/payments.contract';
import { bookingContract } from './ticketing/booking.contract';
import { ordersContract } from './ticketing/orders.contract';
import { ticketsContract } from './ticketing/tickets.contract';

const c = initContract();

/** The whole API. Each product adds its router here. */
export const contract = c.router({
  platform: platformContract,
  keys: keysContract,
  operator: operatorContract,
  webhookEndpoints: webhookEndpointsContract,
  eventLog: eventLogContract,
  streams: streamsContract,
  access: accessContract,
  identity: identityContract,
  customers: customersContract,
  organizations: organizationsContract,
  organizerEvents: organizerEventsContract,
  ticketTypes: ticketTypesContract,
  eventSlots: eventSlotsContract,
  coupons: couponsContract,
  ticketingPayments: ticketingPaymentsContract,
  booking: bookingContract,
  orders: ordersContract,
  tickets: ticketsContract,
});
export type Contract = typeof contract;
