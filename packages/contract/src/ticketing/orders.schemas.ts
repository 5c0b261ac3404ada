import { z } from 'zod';
import { FULFILLMENT_STATUSES, FulfillmentSchema, SHIPPING_METHODS, ShippingAddressResponseSchema } from '../commerce/orders.schemas';

export const ORDER_STATUSES = ['pending', 'paid', 'expired', 'cancelled', 'refunded', 'partially_refunded'] as const;
export const TICKET_STATUSES = ['pending_payment', 'valid', 'void'] as const;

export const AttendeeSchema = z.object({
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  extra_data: z.record(z.string(), z.unknown()),
});

/**
 * A ticket. `secret` (32 characters, for scanning) is shown only to its holder (`GET /v1/attendee/tickets`)
 * and in the ticket message; everywhere else it is `null`.
 */
export const TicketSchema = z
  .object({
    id: z.string().describe('Starts `tkt_`.'),
    object: z.literal('ticket'),
    livemode: z.boolean(),
    order: z.string().describe('The `ord_` id.'),
    order_code: z.string(),
    event: z.string().describe('The event\'s uuid.'),
    ticket_type: z.string(),
    event_slot: z.string().nullable(),
    status: z.enum(TICKET_STATUSES),
    attendee: AttendeeSchema,
    customer: z.string().nullable().describe('The attendee\'s `cus_` id once the order is paid.'),
    secret: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'Ticket' });
export type Ticket = z.infer<typeof TicketSchema>;

/** An attendee of an order, with their ticket (without its secret). */
export const OrderAttendeeSchema = AttendeeSchema.extend({
  ticket: z.object({ id: z.string(), status: z.enum(TICKET_STATUSES) }),
});

export const ORDER_KINDS = ['ticket', 'product', 'subscription'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

/**
 * A line of an order. A ticket order has one `ticket` line; product orders one per variant; subscription orders
 * one for the period. Exactly one of `ticket`, `product`, `subscription` is set: the one of its `kind`.
 */
export const LineItemSchema = z
  .object({
    id: z.string().describe('Starts `li_`.'),
    object: z.literal('line_item'),
    kind: z.enum(ORDER_KINDS),
    description: z.string().describe('The ticket type\'s name; the product and variant names; the tier name and period.'),
    quantity: z.number().int(),
    unit_amount: z.number().int(),
    amount_subtotal: z.number().int().describe('`unit_amount × quantity`.'),
    amount_discount: z.number().int(),
    amount_total: z.number().int().describe('`amount_subtotal − amount_discount`.'),
    currency: z.string(),
    quantity_refunded: z.number().int().describe('Units refunded so far.'),
    ticket: z.object({ event: z.string(), ticket_type: z.string(), event_slot: z.string().nullable() }).nullable(),
    product: z.object({ product: z.string(), variant: z.string(), sku: z.string().nullable(), kind: z.string() }).nullable(),
    subscription: z.object({ subscription: z.string(), tier: z.string(), period_start: z.string().nullable(), period_end: z.string().nullable() }).nullable(),
  })
  .meta({ id: 'LineItem' });
export type LineItem = z.infer<typeof LineItemSchema>;

/** An order (the spec's booking). Amounts are integers in the currency's minor unit. */
export const OrderSchema = z
  .object({
    id: z.string().describe('Starts `ord_`.'),
    object: z.literal('order'),
    livemode: z.boolean(),
    code: z.string().describe('8 characters; the booking code the buyer sees.'),
    status: z.enum(ORDER_STATUSES),
    kind: z.enum(ORDER_KINDS).describe('`ticket` (made by booking), `product` (`POST /v1/orders`) or `subscription` (subscribing and renewal).'),
    organization: z.string().describe('The `org_` id (tickets: the event\'s organization).'),
    event: z.string().nullable().describe('The event\'s uuid; `null` unless `kind` is `ticket`.'),
    ticket_type: z.string().nullable().describe('`null` unless `kind` is `ticket`.'),
    event_slot: z.string().nullable(),
    quantity: z.number().int().describe('Tickets: as booked; products: units; subscriptions: `1`.'),
    line_items: z.array(LineItemSchema),
    amount_subtotal: z.number().int().describe('The line items\' subtotal, before discount and shipping.'),
    amount_shipping: z.number().int(),
    amount_total: z.number().int().describe('`amount_subtotal − amount_discount + amount_shipping`.'),
    amount_discount: z.number().int(),
    amount_paid: z.number().int(),
    amount_refunded: z.number().int(),
    amount_refund_pending: z.number().int().describe('Refunds on their way back: not refundable again.'),
    amount_due: z.number().int(),
    currency: z.string(),
    coupon: z.string().nullable().describe('The coupon code applied.'),
    buyer: z.object({ name: z.string().nullable(), email: z.string().nullable(), phone: z.string().nullable() }),
    customer: z.string().nullable().describe('The buyer\'s `cus_` id when signed in.'),
    attendees: z.array(OrderAttendeeSchema),
    subscription: z.string().nullable().describe('The `sub_` id of a subscription order, else `null`.'),
    shipping_method: z.enum(SHIPPING_METHODS).nullable().describe('Product orders with a physical item: `delivery` or `pickup`; else `null`.'),
    shipping_address: ShippingAddressResponseSchema.nullable().describe('A `delivery` order\'s address; else `null`.'),
    fulfillment_status: z.enum(FULFILLMENT_STATUSES).nullable().describe('Product orders (a digital-only order is `fulfilled` when paid); else `null`.'),
    fulfillment: FulfillmentSchema.nullable().describe('Product orders: carrier, tracking and when each step happened; else `null`.'),
    checkout_url: z.string().nullable().describe('The open checkout page while the order is `pending` with something due, else `null`.'),
    expires_at: z.string().nullable(),
    pay_later: z.boolean(),
    redirect_url: z.string().nullable(),
    external_id: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    paid_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    expired_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof OrderSchema>;
