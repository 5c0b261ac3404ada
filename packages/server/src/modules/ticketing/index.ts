import type { ModuleDefinition } from '../../core/modules/module-definition';
import { couponsRouter } from './coupons/coupons.router';
import { organizerEventsRouter } from './events/events.router';
import { eventSlotsRouter } from './slots/slots.router';
import { ticketTypesRouter } from './ticket-types/ticket-types.router';
import { mountCheckoutPage } from './checkout/checkout-page';
import { cancelEventOrdersJob } from './event-cancel/cancel-event-orders.job';
import { ticketingPaymentsRouter } from './payments.router';
import { bookingRouter } from './booking/booking.router';
import { orderExpiryJobs } from './orders/expire-orders.job';
import { ordersRouter } from './orders/orders.router';
import { ticketsRouter } from './tickets/tickets.router';
import { analyticsRouter } from './analytics/analytics.router';
import { activityRouter } from './activity/activity.router';
import { activityJobs } from './activity/event-starting.job';
import { attendeesRouter } from './attendees/attendees.router';
import { attendeeDeliverySubscriber } from './attendees/delivery-statuses';
import { checkinsRouter } from './checkins/checkins.router';
import { pageViewWriter, setUpPublicReads } from './public/public-parts';
import { purgePageViewsJob } from './public/purge-page-views.job';
import { registerPaymentTarget } from '../payments';
import { registerSignInListener } from '../identity';
import { claimGuestOrders } from './orders/guest-orders';
import { ticketPaymentTarget } from './payments/payment-target';

/**
 * Events and ticketing: the organizer's catalogue, public event pages, booking with capacity holds, orders,
 * the checkout (a simulator in test mode), payments, refunds, pay-later, tickets, and the ticket that opens
 * the stream (an Access entitlement with `source: ticket`).
 */
export const ticketingModule: ModuleDefinition = {
  name: 'ticketing',
  // The public event page's cache (cleared through LISTEN), its batched bucket reads and the page view counter;
  // and ticket orders as what payments pay.
  setup: (ctx, listener) => {
    setUpPublicReads(ctx, listener);
    // Payments tell ticketing of money confirmed or returned after the request that started it.
    registerPaymentTarget(ticketPaymentTarget);
    // A guest's orders become the customer's when they sign in with the same email or phone.
    registerSignInListener(claimGuestOrders);
  },
  routers: (ctx) => ({
    organizerEvents: organizerEventsRouter(ctx),
    ticketTypes: ticketTypesRouter(ctx),
    eventSlots: eventSlotsRouter(ctx),
    coupons: couponsRouter(ctx),
    booking: bookingRouter(ctx),
    orders: ordersRouter(ctx),
    tickets: ticketsRouter(ctx),
    ticketingPayments: ticketingPaymentsRouter(ctx),
    attendees: attendeesRouter(ctx),
    checkins: checkinsRouter(ctx),
    analytics: analyticsRouter(ctx),
    activity: activityRouter(ctx),
  }),
  // The test-mode checkout simulator's page (outside the contract: it answers HTML).
  pages: { paths: ['/checkout'], mount: mountCheckoutPage },
  // Writes the counted page views every second and on shutdown.
  worker: pageViewWriter,
  jobs: (ctx) => [...orderExpiryJobs(ctx), cancelEventOrdersJob(ctx), ...activityJobs(ctx), purgePageViewsJob(ctx)],
  // Ticket and invite delivery statuses follow payment and messaging's delivery events.
  onEvents: attendeeDeliverySubscriber,
};

// The public reads of published events, served on the event log's paths (`GET /v1/events`, `/v1/events/{event}`).
export { listPublicEvents, showPublicEvent, showPublicEventReferred, upcomingLiveEvents, type PublicTicketedEvent } from './public/public-events.service';
export type { Visitor } from './public/page-views';

// One order resource, three kinds (products-api § 3.1): the modules that own product and subscription orders
// register a handler and create their orders here; ticketing keeps the order, its lines, checkout and refunds.
export { registerOrderKind, orderEventType, type OrderKindHandler, type ReleaseReason, type RefundedUnits } from './orders/order-kinds';
// A booking's add-ons (products-api § 3.1): commerce checks, prices and holds them with the seats.
export { registerAddOns, type AddOnsHandler, type AddOnsRequest, type PlannedAddOns } from './orders/order-kinds';
// Fanbases prompts a renewal order's payment (an M-Pesa STK push) by itself.
export { chargeOrderSavedCard, promptOrderPayment } from './checkout/prompt-order.service';
export { eventMembershipPart, type EventMembershipSource } from './events/event-gates';
export { customerViewerOf } from './public/viewer';
export { createOrder, prepareOrder, type CreateOrderInput, type CreatedOrder, type NewOrderLine, type PreparedOrder } from './orders/create-order.service';
export { presentOrder, presentOrders } from './orders/orders.serializer';
export { lineItemsOfOrders, serializeLineItem, type LineItemRow, type OrderRow } from './orders/order-rows.service';
// Commerce locks a product order to move its fulfilment, and reads a page of them for its export.
export { findOrder, findOrdersByIds } from './orders/order-rows.service';
// Other products learn of orders made, paid and refunded (promoters: attribution and commissions).
export { findEventById as findTicketedEvent } from './booking/catalogue-reads';
export { registerOrderListener, type OrderListener, type OrderItem, type AttributionRequest, type ReferralTouch, type Referral } from './orders/order-listeners';
