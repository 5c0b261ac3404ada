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
import { bookingContract } from './ticketing/booking.contract';
import { ordersContract } from './ticketing/orders.contract';
import { ticketsContract } from './ticketing/tickets.contract';
import { organizerEventsContract } from './ticketing/organizer-events.contract';
import { couponsContract, eventSlotsContract, ticketTypesContract } from './ticketing/event-catalogue.contract';
import { creatorsContract } from './creators';

const c = initContract();

/**
 * The groups of the whole API, spelled out so that declaration files name each group's type instead of printing
 * the whole contract inline (which outgrows what the compiler will serialize).
 */
export type ContractRoutes = {
  platform: typeof platformContract;
  keys: typeof keysContract;
  operator: typeof operatorContract;
  webhookEndpoints: typeof webhookEndpointsContract;
  eventLog: typeof eventLogContract;
  streams: typeof streamsContract;
  access: typeof accessContract;
  identity: typeof identityContract;
  customers: typeof customersContract;
  organizations: typeof organizationsContract;
  organizerEvents: typeof organizerEventsContract;
  ticketTypes: typeof ticketTypesContract;
  eventSlots: typeof eventSlotsContract;
  coupons: typeof couponsContract;
  creators: typeof creatorsContract;
};

/** The whole API. Each product adds its router here, and its group to `ContractRoutes`. */
export const contract: ContractRoutes = c.router({
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
  booking: bookingContract,
  orders: ordersContract,
  tickets: ticketsContract,
  organizerEvents: organizerEventsContract,
  ticketTypes: ticketTypesContract,
  eventSlots: eventSlotsContract,
  coupons: couponsContract,
  creators: creatorsContract,
});
export type Contract = typeof contract;
