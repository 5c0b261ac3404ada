import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { MetadataSchema } from '../common/metadata';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { TicketedEventSchema } from './catalogue.schemas';
import { EventParams, organizerRoute } from './organizer-events.contract';
import {
  CheckoutSessionSchema,
  PayCheckoutSessionResultSchema,
  PayCheckoutSessionSchema,
  PayLaterResultSchema,
  RefundSchema,
} from './payments.schemas';

const c = initContract();

const publicRoute = access({ auth: 'public' });
const refund = { access: { ...organizerRoute('write').access, idempotency: 'required' as const } };
const payLater = access({
  auth: 'tenant',
  credentials: ['secret', 'restricted', 'publishable', 'user', 'tenant-header'],
  scope: 'events:write',
  product: 'events',
});
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });
const CodeParams = z.object({ code: z.string().max(64) });

/** The checkout page's two calls: public, since the session id is unguessable. */
export const checkoutContract = c.router(
  {
    retrieveSession: {
      method: 'GET',
      path: '/v1/checkout/sessions/:id',
      summary: 'Retrieve a checkout session',
      description:
        'What the checkout page shows: the amount, the order summary (no buyer details), the `methods` offered, the `latest_payment` ' +
        '(polled while it is `pending`) and, once settled, `redirect_to`. Public: the `cs_` id is the credential. Serves test- and live-mode sessions.',
      pathParams: IdParams,
      responses: { 200: dataOf(CheckoutSessionSchema), ...errorResponses(404, 429, 500) },
      metadata: publicRoute,
    },
    paySession: {
      method: 'POST',
      path: '/v1/checkout/sessions/:id/pay',
      summary: 'Pay a checkout session',
      description:
        'Starts a payment by `mobile_money` or `card` through the configuration that serves the method for the order (products-api § 1.2). ' +
        'Live mode (and test mode whose settings list a sandbox configuration): `Idempotency-Key` is required in live mode (the same key answers the same attempt); ' +
        'M-Pesa needs a Kenyan `phone` and answers `next_action: confirm_on_phone` (poll the session); Paystack and Stripe answer `next_action: redirect` to their hosted page, ' +
        'which comes back to `/checkout/{id}/return`. `card_number` in live mode is `422 validation_failed`; a method no configuration serves is `422 payment_method_unavailable`; ' +
        'a second attempt while a mobile money prompt of the session is under 120 s old is `409 payment_in_progress`. ' +
        'Test mode without a configuration uses the simulator: pays by `mobile_money` (`phone`) or `card` (`card_number`). Magic values: `+254711000000` and `4242424242424242` succeed; ' +
        '`+254711000001` and `4000000000009995` fail with `insufficient_funds`; `+254711000002` and `4000000000000002` fail with `declined`; ' +
        '`+254711000003` never answers (the payment stays `pending` and the order expires); `+254711000005` and `4000000000005126` succeed but refunds of them fail; ' +
        'anything else succeeds. A failed payment leaves the order `pending` for another try. Errors: `409 checkout_session_complete` (already paid), ' +
        '`409 order_not_payable` (cancelled, refunded or the event was cancelled).',
      pathParams: IdParams,
      body: PayCheckoutSessionSchema,
      responses: { 200: dataOf(PayCheckoutSessionResultSchema), ...errorResponses(400, 404, 409, 422, 429, 500, 502, 503) },
      metadata: publicRoute,
    },
  },
  { strictStatusCodes: true },
);

export const refundsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/orders/:id/refunds',
      summary: 'Refund an order',
      description:
        'Returns `amount` (default: all that is left) of one payment of a paid order; needs an `Idempotency-Key` (`400 idempotency_key_required`). ' +
        'The amount must be at most what is left of that payment and of the order (`422 refund_amount_too_large`, `param: amount`, `details.refundable` and `details.order_refundable`). ' +
        'The simulator settles the refund at once (except for its pending-refund payers); a live provider\'s refund is `pending` (`payments.refund.created`) until it settles. When everything paid has been returned the order becomes `refunded` (seats released, tickets void, ' +
        'stream access revoked); otherwise `partially_refunded`. Only `paid` and `partially_refunded` orders: `409 order_not_refundable`.',
      pathParams: IdParams,
      body: z.object({
        amount: z.number().int().min(1).optional().describe('In the currency\'s minor unit; at most what is left of the payment.'),
        reason: z.string().max(500).optional(),
        payment: z.string().max(255).optional().describe('The `pay_` whose money goes back; default: the newest succeeded payment with money left.'),
        manual: z.boolean().optional().describe('The money went back outside the service: recorded `succeeded` at once, no provider call.'),
        line_items: z
          .array(z.object({ id: z.string().max(255).describe('The `li_` id.'), quantity: z.number().int().min(1) }))
          .min(1)
          .max(50)
          .optional()
          .describe('Units returned: counted in the lines\' `quantity_refunded` (at most what is left of each: `422 validation_failed`, `param: line_items.N.quantity`); `amount` then defaults to those units\' paid share.'),
        restock: z.boolean().optional().describe('Product orders: the returned units go back to stock when the refund succeeds (default true).'),
        metadata: MetadataSchema.optional(),
      }),
      responses: { 201: dataOf(RefundSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: refund,
    },
    list: {
      method: 'GET',
      path: '/v1/orders/:id/refunds',
      summary: 'List an order\'s refunds',
      description: 'Newest first, failed ones included.',
      pathParams: IdParams,
      query: CursorPageQuerySchema,
      responses: { 200: cursorListOf(RefundSchema), ...errors, ...errorResponses(404) },
      metadata: organizerRoute('read'),
    },
  },
  { strictStatusCodes: true },
);

export const payLaterContract = c.router(
  {
    payFixed: {
      method: 'POST',
      path: '/v1/events/booking/pay-later/fixed/:code',
      summary: 'Pay the balance of a pay-later order',
      description:
        'Starts a payment of the whole balance: `payment` is the checkout page to pay it at. The order is `paid` once `amount_paid` reaches `amount_total`. ' +
        'Takes the same callers as booking. Errors: `404` (no such order code), `409 pay_later_not_allowed` (not a pay-later order), `409 order_not_payable`.',
      pathParams: CodeParams,
      body: z.object({}).optional(),
      responses: { 200: dataOf(PayLaterResultSchema), ...errors, ...errorResponses(404, 409, 422, 503) },
      metadata: payLater,
    },
    payOpen: {
      method: 'POST',
      path: '/v1/events/booking/pay-later/open/:code',
      summary: 'Pay an instalment of a pay-later order',
      description:
        'Starts a payment of `amount` (default: the whole balance), at least the ticket type\'s `flexipay_min_price` unless less is left ' +
        '(`422` with `param: amount`), at most the balance. `payment` is the checkout page to pay it at.',
      pathParams: CodeParams,
      body: z.object({ amount: z.number().int().min(1).optional() }).optional(),
      responses: { 200: dataOf(PayLaterResultSchema), ...errors, ...errorResponses(404, 409, 422, 503) },
      metadata: payLater,
    },
  },
  { strictStatusCodes: true },
);

export const eventCancelContract = c.router(
  {
    cancel: {
      method: 'POST',
      path: '/v1/organizer/events/:event/cancel',
      summary: 'Cancel an event',
      description:
        'Marks the event `cancelled` (no more bookings) and emits `events.event.cancelled`; then a job cancels its pending orders and refunds its paid ones in full, ' +
        'each refund its own `re_` row. Cancelling again answers the event as it is. `{event}` is the slug or the uuid.',
      pathParams: EventParams,
      body: z.object({ reason: z.string().max(500).optional() }).optional(),
      responses: { 200: dataOf(TicketedEventSchema), ...errors, ...errorResponses(404, 409) },
      metadata: organizerRoute('write'),
    },
  },
  { strictStatusCodes: true },
);

/** Checkout, payments, refunds, pay-later and event cancellation. */
export const ticketingPaymentsContract = c.router({
  checkout: checkoutContract,
  refunds: refundsContract,
  payLater: payLaterContract,
  eventCancel: eventCancelContract,
});
