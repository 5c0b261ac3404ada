import { initContract } from '@ts-rest/core';
import { platformContract } from './platform/platform.contract';
import { keysContract } from './platform/keys.contract';
import { operatorContract } from './platform/operator.contract';
import { webhookEndpointsContract } from './platform/webhook-endpoints.contract';
import { eventLogContract } from './platform/event-log.contract';
import { requestLogsContract } from './platform/request-logs.contract';
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
import { analyticsContract } from './ticketing/analytics.contract';
import { activityContract } from './ticketing/activity.contract';
import { attendeesContract } from './ticketing/attendees.contract';
import { checkinsContract } from './ticketing/checkins.contract';
import { creatorsContract } from './creators';
import { brandingContract, domainsContract } from './whitelabel';
import { paymentsContract } from './payments/payments.contract';
import { fanbasesContract, fanbasesPublicContract, subscriptionsContract } from './fanbases';
import { commerceContract } from './commerce';
import { commissionsContract, promoterViewContract, promotersContract } from './promoters';

const c = initContract();

/** Every contract group. Each product adds its router here, and its type to `ContractGroups` below. */
const groups = {
  platform: platformContract,
  keys: keysContract,
  operator: operatorContract,
  webhookEndpoints: webhookEndpointsContract,
  eventLog: eventLogContract,
  requestLogs: requestLogsContract,
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
  analytics: analyticsContract,
  activity: activityContract,
  attendees: attendeesContract,
  checkins: checkinsContract,
  creators: creatorsContract,
  branding: brandingContract,
  domains: domainsContract,
  payments: paymentsContract,
  fanbases: fanbasesContract,
  fanbasesPublic: fanbasesPublicContract,
  subscriptions: subscriptionsContract,
  commerce: commerceContract,
  promoters: promotersContract,
  commissions: commissionsContract,
  promoterView: promoterViewContract,
};

/**
 * The groups' types, spelled out: the inferred type of `c.router` over every group grew past what the
 * compiler will write into a declaration file (TS7056).
 */
export type ContractGroups = {
  platform: typeof platformContract;
  keys: typeof keysContract;
  operator: typeof operatorContract;
  webhookEndpoints: typeof webhookEndpointsContract;
  eventLog: typeof eventLogContract;
  requestLogs: typeof requestLogsContract;
  streams: typeof streamsContract;
  access: typeof accessContract;
  identity: typeof identityContract;
  customers: typeof customersContract;
  organizations: typeof organizationsContract;
  organizerEvents: typeof organizerEventsContract;
  ticketTypes: typeof ticketTypesContract;
  eventSlots: typeof eventSlotsContract;
  coupons: typeof couponsContract;
  ticketingPayments: typeof ticketingPaymentsContract;
  booking: typeof bookingContract;
  orders: typeof ordersContract;
  tickets: typeof ticketsContract;
  analytics: typeof analyticsContract;
  activity: typeof activityContract;
  attendees: typeof attendeesContract;
  checkins: typeof checkinsContract;
  creators: typeof creatorsContract;
  branding: typeof brandingContract;
  domains: typeof domainsContract;
  payments: typeof paymentsContract;
  fanbases: typeof fanbasesContract;
  fanbasesPublic: typeof fanbasesPublicContract;
  subscriptions: typeof subscriptionsContract;
  commerce: typeof commerceContract;
  promoters: typeof promotersContract;
  commissions: typeof commissionsContract;
  promoterView: typeof promoterViewContract;
};

/** The whole API. */
export const contract: ContractGroups = c.router(groups);
export type Contract = typeof contract;
