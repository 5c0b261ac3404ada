import { z } from 'zod';
import { EntitlementLimitsSchema } from '../access/entitlements.schemas';
import { MetadataSchema } from '../common/metadata';
import { ContentGateInputSchema, ContentGateSchema } from '../creators/contents.schemas';

/** Amounts are integers in the currency's minor unit (Stripe style). */
// The columns are 32-bit integers: 2,000,000,000 minor units (20 million in a two-decimal currency) is the ceiling.
const Amount = z.number().int().min(0).max(2_000_000_000);
const Count = z.number().int().min(0).max(10_000_000);
const Instant = z.iso.datetime({ offset: true });
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Lower-case words joined by `-`; never shaped like a uuid, since `{event}` is a slug or a uuid. */
export const EventSlugSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'A slug is lower-case letters and digits joined by `-`.')
  .refine((s) => !UUID_SHAPE.test(s), 'A slug must not look like a uuid.');

export const EventTimezoneSchema = z.string().max(64).refine((tz) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'An IANA time zone, e.g. Africa/Nairobi.');

const CurrencySchema = z.string().regex(/^[A-Z]{3}$/, 'An ISO 4217 code, e.g. KES.');

export const VenueSchema = z
  .object({
    name: z.string().min(1).max(200),
    address: z.string().max(500).nullable().optional(),
    city: z.string().max(100).nullable().optional(),
    country: z.string().regex(/^[A-Z]{2}$/, 'An ISO 3166 alpha-2 code.').nullable().optional(),
  })
  .meta({ id: 'Venue' });

export const EVENT_STATUSES = ['draft', 'published', 'cancelled', 'completed'] as const;

export const TicketedEventSchema = z
  .object({
    id: z.string().describe('A uuid.'),
    object: z.literal('ticketed_event'),
    livemode: z.boolean(),
    organization: z.string().describe('The `org_` id that owns the event.'),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    starts_at: z.string(),
    ends_at: z.string(),
    timezone: z.string(),
    venue: VenueSchema.nullable(),
    capacity: z.number().int().nullable().describe('`null`: unlimited.'),
    currency: z.string(),
    requires_approval: z.boolean(),
    hold_minutes: z.number().int(),
    live_stream: z.string().nullable().describe('The `ls_` stream a ticket opens.'),
    gate: ContentGateSchema.nullable().describe("Who may book: members of the organization's fanbase, or of some tiers; `null`: anyone."),
    status: z.enum(EVENT_STATUSES),
    published_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'TicketedEvent' });

export const CreateTicketedEventSchema = z
  .object({
    organization: z.string().max(64).optional().describe('Required with a key; a member of exactly one organization may leave it out.'),
    name: z.string().min(1).max(200),
    slug: EventSlugSchema.optional().describe('Unique per tenant and environment; made from the name by default.'),
    description: z.string().max(20_000).nullable().optional(),
    starts_at: Instant,
    ends_at: Instant,
    timezone: EventTimezoneSchema.optional().describe("Default: the organization's."),
    venue: VenueSchema.nullable().optional(),
    capacity: Count.nullable().optional(),
    currency: CurrencySchema.optional().describe('Default `KES`.'),
    requires_approval: z.boolean().optional(),
    hold_minutes: z.number().int().min(1).max(1440).optional().describe('How long a booking holds its seats; default 15.'),
    live_stream: z.string().max(64).nullable().optional(),
    gate: ContentGateInputSchema.nullable().optional().describe('Restricts booking to fanbase members (`members`) or to tiers (`tiers`); `null`: anyone.'),
    metadata: MetadataSchema.optional(),
  })
  .meta({ id: 'CreateTicketedEventRequest' });

export const UpdateTicketedEventSchema = CreateTicketedEventSchema.omit({ organization: true })
  .partial()
  .extend({ name: z.string().min(1).max(200).optional() })
  .meta({ id: 'UpdateTicketedEventRequest' });

export const EXTRA_FIELD_TYPES = ['text', 'select', 'checkbox'] as const;

const ExtraFieldInputSchema = z.object({
  name: z.string().min(1).max(100),
  type: z.enum(EXTRA_FIELD_TYPES),
  required: z.boolean().optional(),
  options: z.array(z.string().min(1).max(100)).min(1).max(50).nullable().optional().describe('Required for `select`.'),
});

export const ExtraFieldSchema = z
  .object({ id: z.string(), name: z.string(), type: z.enum(EXTRA_FIELD_TYPES), required: z.boolean(), options: z.array(z.string()).nullable() })
  .meta({ id: 'ExtraField' });

export const PRICING_MODES = ['fixed', 'name_your_price'] as const;

export const TicketTypeSchema = z
  .object({
    id: z.string().describe('A uuid.'),
    object: z.literal('ticket_type'),
    livemode: z.boolean(),
    event: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    pricing_mode: z.enum(PRICING_MODES),
    price: z.number().int().nullable(),
    flexipay_min_price: z.number().int().nullable(),
    flexipay_max_price: z.number().int().nullable(),
    quantity: z.number().int().nullable().describe('`null`: unlimited. Per slot when the event has slots.'),
    min_per_order: z.number().int(),
    max_per_order: z.number().int(),
    sale_starts_at: z.string().nullable(),
    sale_ends_at: z.string().nullable(),
    allow_pay_later: z.boolean(),
    requires_approval: z.boolean(),
    admits: z.number().int(),
    extra_fields: z.array(ExtraFieldSchema),
    stream_limits: z.record(z.string(), z.unknown()).nullable().describe('The entitlement `limits` a ticket grants.'),
    status: z.enum(['active', 'paused']),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'TicketType' });

const ticketTypeFields = {
  name: z.string().min(1).max(200),
  description: z.string().max(5000).nullable().optional(),
  pricing_mode: z.enum(PRICING_MODES),
  price: Amount.nullable().optional().describe('Required for `fixed`; 0 is free.'),
  flexipay_min_price: Amount.nullable().optional(),
  flexipay_max_price: Amount.nullable().optional(),
  quantity: Count.nullable().optional(),
  min_per_order: z.number().int().min(1).max(100).optional(),
  max_per_order: z.number().int().min(1).max(100).optional(),
  sale_starts_at: Instant.nullable().optional(),
  sale_ends_at: Instant.nullable().optional(),
  allow_pay_later: z.boolean().optional(),
  requires_approval: z.boolean().optional(),
  admits: z.number().int().min(1).max(100).optional(),
  extra_fields: z.array(ExtraFieldInputSchema).max(20).optional(),
  stream_limits: EntitlementLimitsSchema.nullable().optional(),
  status: z.enum(['active', 'paused']).optional(),
};

export const CreateTicketTypeSchema = z.object(ticketTypeFields).meta({ id: 'CreateTicketTypeRequest' });
export const UpdateTicketTypeSchema = z.object(ticketTypeFields).partial().meta({ id: 'UpdateTicketTypeRequest' });

export const EventSlotSchema = z
  .object({
    id: z.string().describe('A uuid.'),
    object: z.literal('event_slot'),
    livemode: z.boolean(),
    event: z.string(),
    starts_at: z.string(),
    ends_at: z.string(),
    capacity: z.number().int().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'EventSlot' });

export const CreateEventSlotSchema = z
  .object({ starts_at: Instant, ends_at: Instant, capacity: Count.nullable().optional() })
  .meta({ id: 'CreateEventSlotRequest' });

export const DISCOUNT_TYPES = ['percent', 'fixed'] as const;

export const CouponSchema = z
  .object({
    id: z.string().describe('A uuid.'),
    object: z.literal('coupon'),
    livemode: z.boolean(),
    event: z.string(),
    code: z.string(),
    discount_type: z.enum(DISCOUNT_TYPES),
    value: z.number().int().describe('Percent (1–100) or an amount in the minor unit.'),
    ticket_type_ids: z.array(z.string()).nullable(),
    max_uses: z.number().int().nullable(),
    times_redeemed: z.number().int(),
    valid_from: z.string().nullable(),
    valid_until: z.string().nullable(),
    active: z.boolean(),
    promoter: z.string().nullable().describe('The `prm_` this coupon is bound to: a booking using it is attributed to that promoter.'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Coupon' });

const couponFields = {
  code: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'Letters, digits, `_` and `-`, at most 40.'),
  discount_type: z.enum(DISCOUNT_TYPES),
  value: z.number().int().min(1).max(2_000_000_000),
  ticket_type_ids: z.array(z.uuid()).min(1).max(100).nullable().optional(),
  max_uses: Count.nullable().optional(),
  valid_from: Instant.nullable().optional(),
  valid_until: Instant.nullable().optional(),
  active: z.boolean().optional(),
  promoter: z.string().max(255).nullable().optional().describe('A `prm_` of the event\'s organization: bookings using the coupon are attributed to it (the latest touch). `null` unbinds it.'),
};

export const CreateCouponSchema = z.object(couponFields).meta({ id: 'CreateCouponRequest' });
export const UpdateCouponSchema = z.object(couponFields).omit({ code: true }).partial().meta({ id: 'UpdateCouponRequest' });

export type CreateTicketedEventInput = z.infer<typeof CreateTicketedEventSchema>;
export type UpdateTicketedEventInput = z.infer<typeof UpdateTicketedEventSchema>;
export type CreateTicketTypeInput = z.infer<typeof CreateTicketTypeSchema>;
export type UpdateTicketTypeInput = z.infer<typeof UpdateTicketTypeSchema>;
export type CreateEventSlotInput = z.infer<typeof CreateEventSlotSchema>;
export type CreateCouponInput = z.infer<typeof CreateCouponSchema>;
export type UpdateCouponInput = z.infer<typeof UpdateCouponSchema>;
