import { z } from 'zod';
import { CursorPageQuerySchema } from '../common/pagination';
import { ContentGateSchema } from '../creators/contents.schemas';
import { ExtraFieldSchema, PRICING_MODES, VenueSchema } from './catalogue.schemas';

export const AVAILABILITIES = ['available', 'sold_out', 'not_on_sale'] as const;

const PublicTicketTypeSchema = z
  .object({
    id: z.string(),
    object: z.literal('ticket_type'),
    name: z.string(),
    description: z.string().nullable(),
    pricing_mode: z.enum(PRICING_MODES),
    price: z.number().int().nullable(),
    flexipay_min_price: z.number().int().nullable(),
    flexipay_max_price: z.number().int().nullable(),
    min_per_order: z.number().int(),
    max_per_order: z.number().int(),
    sale_starts_at: z.string().nullable(),
    sale_ends_at: z.string().nullable(),
    allow_pay_later: z.boolean(),
    admits: z.number().int(),
    extra_fields: z.array(ExtraFieldSchema),
    availability: z
      .enum(AVAILABILITIES)
      .describe('`not_on_sale`: paused, or outside its sale window; `sold_out`: no seat left in the event or the ticket type.'),
  })
  .meta({ id: 'PublicTicketType' });

const PublicSlotSchema = z
  .object({
    id: z.string(),
    object: z.literal('event_slot'),
    starts_at: z.string(),
    ends_at: z.string(),
    availability: z.enum(['available', 'sold_out']),
  })
  .meta({ id: 'PublicEventSlot' });

/** A published event as anyone may see it: no attendee, buyer or sales figure. */
export const PublicTicketedEventSchema = z
  .object({
    id: z.string().describe('A uuid.'),
    object: z.literal('ticketed_event'),
    livemode: z.boolean(),
    organization: z.string(),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    starts_at: z.string(),
    ends_at: z.string(),
    timezone: z.string(),
    venue: VenueSchema.nullable(),
    currency: z.string(),
    requires_approval: z.boolean(),
    status: z.enum(['published', 'completed']),
    has_live_stream: z.boolean().describe('Whether a ticket opens a live stream; `false` while `locked`.'),
    gate: ContentGateSchema.nullable().describe('Who may book; `null`: anyone.'),
    locked: z.boolean().describe('Gated and the viewer (a customer token, else nobody) is not entitled: no description, no stream details, no booking.'),
    ticket_types: z.array(PublicTicketTypeSchema),
    slots: z.array(PublicSlotSchema),
  })
  .meta({ id: 'PublicTicketedEvent' });

/** The public listing's own filters; `object=ticketed_event` asks for it with a secret or restricted key. */
export const ListPublicEventsQuerySchema = CursorPageQuerySchema.extend({
  organization: z.string().max(64).optional().describe('Only events of this `org_` organization.'),
});
