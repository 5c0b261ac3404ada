import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { ExternalIdSchema, MetadataSchema } from '../common/metadata';
import { dataOf } from '../common/pagination';
import { EmailSchema, PhoneSchema } from '../identity/session.schemas';
import { SHIPPING_METHODS, ShippingAddressSchema } from '../commerce/orders.schemas';
import { OrderSchema } from './orders.schemas';

const c = initContract();

export const BOOKABLE_REASONS = [
  'event_not_published',
  'event_ended',
  'sale_not_started',
  'sale_ended',
  'sold_out',
  'quantity_out_of_range',
  'slot_required',
  'ticket_paused',
] as const;
export type BookableReason = (typeof BOOKABLE_REASONS)[number];

const EventParams = z.object({ event: z.string().max(255).describe('The event\'s slug or uuid.') });

export const BookingPayloadSchema = z
  .object({
    ticket: z.object({
      id: z.string(),
      name: z.string(),
      pricing_mode: z.enum(['name_your_price', 'fixed']),
      price: z.number().int().nullable(),
      flexipay_min_price: z.number().int().nullable(),
      flexipay_max_price: z.number().int().nullable(),
      allow_pay_later: z.boolean(),
    }),
    quantity: z.number().int(),
    attendee_slots: z.number().int().describe('quantity × the ticket type\'s `admits`: how many attendees the booking names.'),
    attendee_fields: z.array(z.object({ name: z.string(), label: z.string(), type: z.enum(['text', 'email']), required: z.boolean() })),
    extra_fields: z.array(
      z.object({ id: z.string(), name: z.string(), type: z.string(), required: z.boolean(), options: z.array(z.string()).nullable() }),
    ),
    supports_coupon: z.boolean(),
    bookable: z.boolean(),
    bookable_reason: z.object({ code: z.enum(BOOKABLE_REASONS), message: z.string() }).nullable(),
    sale_window: z.object({ start_sale_at: z.string().nullable(), end_sale_at: z.string().nullable() }),
    expected_payload: z.record(z.string(), z.unknown()).describe('The body `POST …/book` expects, with placeholders.'),
  })
  .meta({ id: 'BookingPayload' });

const AttendeeInputSchema = z.object({
  first_name: z.string().trim().min(1).max(100),
  last_name: z.string().trim().min(1).max(100),
  email: EmailSchema.nullable().optional(),
  phone: PhoneSchema.nullable().optional(),
  extra_data: z.record(z.string().max(100), z.union([z.string().max(1000), z.boolean(), z.null()])).optional(),
});

export const BookingStoreRequestSchema = z
  .object({
    ticket_id: z.uuid(),
    event_slot_id: z.uuid().nullable().optional(),
    quantity: z.number().int().min(1).max(100),
    amount: z.number().int().min(0).max(2_000_000_000).optional().describe('Name-your-price tickets: the price of one ticket, in minor units.'),
    buyer_name: z.string().trim().min(1).max(200).optional(),
    buyer_email: EmailSchema.optional(),
    buyer_phone: PhoneSchema.nullable().optional(),
    redirect_url: z.url({ protocol: /^https?$/ }).max(2000).nullable().optional(),
    coupon_code: z.string().trim().min(1).max(64).nullable().optional(),
    pay_later: z.boolean().optional().describe('Book now and pay later (ticket types with `allow_pay_later`).'),
    referral: z.string().max(1000).nullable().optional().describe('The `referral.token` the event page answered for `?ref=CODE`: attributes the order to the promoter (last touch within the attribution window). A bad token is ignored.'),
    ref: z.string().max(100).nullable().optional().describe('A promoter\'s tracking code, touched now. An unknown or ended code is ignored: the booking goes on.'),
    attendees: z.array(AttendeeInputSchema).min(1).max(1000),
    add_ons: z
      .array(z.object({ variant: z.string().min(1).max(255).describe('A `var_` id.'), quantity: z.number().int().min(1).max(100) }).strict())
      .max(50)
      .optional()
      .describe(
        'Products of the event\'s organization bought with the tickets (the show\'s T-shirt): product line items of this ticket order, ' +
          'their stock reserved with the seats. Repeats of a variant are summed. Needs the `commerce` product.',
      ),
    shipping_method: z.enum(SHIPPING_METHODS).nullable().optional().describe('With a physical add-on: `delivery` (default) or `pickup` (when the organization allows it).'),
    shipping_address: ShippingAddressSchema.nullable().optional().describe('Required for a `delivery` of physical add-ons.'),
    external_id: ExternalIdSchema.optional().describe('Secret and restricted keys only.'),
    metadata: MetadataSchema.optional().describe('Secret and restricted keys only.'),
  })
  .meta({ id: 'BookingStoreRequest' });
export type BookingStoreRequest = z.infer<typeof BookingStoreRequestSchema>;

/** Booking is public: a publishable key, a signed-in person with the tenant header, or the tenant header alone. */
const bookingAccess = (scope: 'events:read' | 'events:write') =>
  access({ auth: 'tenant', credentials: ['secret', 'restricted', 'publishable', 'user', 'tenant-header'], scope, product: 'events' });

export const bookingContract = c.router(
  {
    payload: {
      method: 'GET',
      path: '/v1/events/:event/book/payload',
      summary: 'Describe a booking',
      description:
        'What `POST …/book` needs for this ticket type and quantity: attendee fields, extra fields, the sale window, ' +
        'whether it can be booked now (`bookable_reason.code` says why not) and the expected body.',
      pathParams: EventParams,
      query: z.object({
        ticket_id: z.uuid(),
        quantity: z.coerce.number().int().min(1).max(100),
        event_slot_id: z.uuid().optional(),
      }),
      responses: { 200: dataOf(BookingPayloadSchema), ...errorResponses(...COMMON_ERROR_STATUSES), ...errorResponses(404, 422) },
      metadata: bookingAccess('events:read'),
    },
    book: {
      method: 'POST',
      path: '/v1/events/:event/book',
      summary: 'Book tickets',
      description:
        'Holds the seats until `expires_at` and creates the order with one ticket per attendee. `payment` is the checkout URL, ' +
        'or `[]` when nothing is due (a free order is paid at once; a pay-later order waits). Sold out: `409 sold_out`; ' +
        'a priced booking in live mode without a payments provider: `503 payments_unavailable`.',
      pathParams: EventParams,
      body: BookingStoreRequestSchema,
      responses: {
        201: dataOf(z.object({ booking: OrderSchema, payment: z.union([z.string(), z.tuple([])]) })),
        ...errorResponses(...COMMON_ERROR_STATUSES),
        ...errorResponses(404, 409, 422, 503),
      },
      metadata: bookingAccess('events:write'),
    },
  },
  { strictStatusCodes: true },
);
