import { z } from 'zod';
import { ORDER_STATUSES, TICKET_STATUSES } from './orders.schemas';

export const ATTENDEE_STATUSES = ['pending', 'confirmed', 'cancelled'] as const;
export const REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const DELIVERY_STATUSES = ['not_requested', 'queued', 'delivered', 'failed'] as const;
export const CHECKIN_TYPES = ['entry', 'exit'] as const;
export const CHECKIN_REASONS = ['invalid', 'unpaid', 'cancelled', 'unapproved', 'already_redeemed', 'invalid_time'] as const;

/**
 * An attendee as the organizer sees it: one ticket. `id` is the spec's attendee uuid. `status` is `pending`
 * (unpaid, or waiting for review), `confirmed` (paid, not rejected) or `cancelled` (the order expired, was
 * cancelled or refunded, or the attendee was rejected).
 */
export const OrganizerAttendeeSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('attendee'),
    livemode: z.boolean(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    status: z.enum(ATTENDEE_STATUSES),
    review_status: z.enum(REVIEW_STATUSES).nullable().describe('`null` when neither the event nor the ticket type asks for review.'),
    ticket: z.object({ id: z.string().describe('Starts `tkt_`.'), status: z.enum(TICKET_STATUSES) }),
    ticket_type: z.object({ id: z.string(), name: z.string() }),
    order: z.object({ id: z.string(), code: z.string(), status: z.enum(ORDER_STATUSES) }),
    comp: z.boolean().describe('Added by the organizer, free.'),
    invite_status: z.enum(DELIVERY_STATUSES),
    ticket_delivery_status: z.enum(DELIVERY_STATUSES),
    checked_in: z.boolean().describe('Inside now: the last accepted scan was an entry.'),
    created_at: z.string(),
  })
  .meta({ id: 'OrganizerAttendee' });
export type OrganizerAttendee = z.infer<typeof OrganizerAttendeeSchema>;

export const CheckinSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('checkin'),
    type: z.enum(CHECKIN_TYPES),
    status: z.enum(['ok', 'error']),
    reason: z.enum(CHECKIN_REASONS).nullable(),
    ticket: z.string().nullable(),
    attendee: z.uuid().nullable(),
    nonce: z.string().nullable(),
    forced: z.boolean(),
    scanned_at: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'Checkin' });
export type Checkin = z.infer<typeof CheckinSchema>;

export const OrganizerAttendeeDetailSchema = OrganizerAttendeeSchema.extend({
  event_slot: z.string().nullable(),
  review_reason: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  extra_fields: z.array(z.object({ id: z.string(), name: z.string(), value: z.unknown() })).describe('The answers to the ticket type\'s extra fields.'),
  checkins: z.array(CheckinSchema).describe('Accepted and refused scans of this ticket, newest first (at most 50).'),
}).meta({ id: 'OrganizerAttendeeDetail' });
export type OrganizerAttendeeDetail = z.infer<typeof OrganizerAttendeeDetailSchema>;

export const AttendeeSummarySchema = z.object({
  all: z.number().int(),
  pending: z.number().int(),
  confirmed: z.number().int(),
  cancelled: z.number().int(),
});

export const AddAttendeeSchema = z.object({
  first_name: z.string().min(1).max(100),
  last_name: z.string().min(1).max(100),
  email: z.email().max(255),
  phone: z.string().max(20).nullable().optional(),
  ticket_type_id: z.uuid(),
  event_slot_id: z.uuid().nullable().optional().describe('Required when the event has slots.'),
  send_invite: z.boolean().nullable().optional().describe('Default true; `false` leaves `invite_status: not_requested`.'),
});
export type AddAttendeeInput = z.infer<typeof AddAttendeeSchema>;

export const ScanSchema = z.object({
  secret: z.string().min(1).max(255),
  type: z.enum(CHECKIN_TYPES).default('entry'),
  nonce: z.string().min(1).max(100).optional().describe('Sent again, the stored result is answered.'),
  scanned_at: z.iso.datetime({ offset: true }).optional().describe('When the scanner read it (offline scans); default now.'),
  force: z.boolean().optional().describe('Accepts the scan although already redeemed or outside the entry window (the door let them in).'),
});
export type ScanInput = z.infer<typeof ScanSchema>;

export const ScanResultSchema = z
  .object({
    status: z.enum(['ok', 'error']),
    reason: z.enum(CHECKIN_REASONS).nullable(),
    ticket: z.object({ id: z.string(), status: z.enum(TICKET_STATUSES), ticket_type: z.object({ id: z.string(), name: z.string() }) }).nullable(),
    attendee: OrganizerAttendeeSchema.nullable(),
  })
  .meta({ id: 'ScanResult' });
export type ScanResult = z.infer<typeof ScanResultSchema>;
