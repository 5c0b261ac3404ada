import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { dataOf } from '../common/pagination';
import { AddAttendeeSchema, ATTENDEE_STATUSES, AttendeeSummarySchema, DELIVERY_STATUSES, OrganizerAttendeeDetailSchema, OrganizerAttendeeSchema } from './attendees.schemas';

const c = initContract();

/** Keys with `events:*`, or a member whose role in the event's organization (or the tenant) grants the permission. */
const read = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'events:read', permission: 'events:read', product: 'events' });
const write = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'events:write', permission: 'events:write', product: 'events' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const EventParams = z.object({ event: z.string().max(255) });
const AttendeeParams = EventParams.extend({ attendee: z.string().max(255) });

export const attendeesContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/organizer/events/:event/attendees',
      summary: 'List attendees',
      description: 'Newest first, with counts per status over the whole event.',
      pathParams: EventParams,
      query: z.object({
        cursor: z.string().max(500).optional(),
        limit: z.coerce.number().int().min(1).max(100).default(20),
        status: z.enum(ATTENDEE_STATUSES).optional(),
      }),
      responses: {
        200: z.object({
          data: z.array(OrganizerAttendeeSchema),
          meta: z.object({ next_cursor: z.string().nullable(), has_more: z.boolean(), limit: z.number().int() }),
          summary: AttendeeSummarySchema,
        }),
        ...errors,
        ...errorResponses(404, 422),
      },
      metadata: read,
    },
    create: {
      method: 'POST',
      path: '/v1/organizer/events/:event/attendees',
      summary: 'Add an attendee',
      description: 'A complimentary ticket: a paid order with total 0 that takes capacity. `400 INVALID_TICKET` for a ticket type not of this event.',
      pathParams: EventParams,
      body: AddAttendeeSchema,
      responses: {
        201: dataOf(z.object({ id: z.uuid(), status: z.literal('confirmed'), invite_status: z.enum(DELIVERY_STATUSES), ticket_delivery_status: z.enum(DELIVERY_STATUSES) })),
        ...errors,
        ...errorResponses(404, 409, 422),
      },
      metadata: write,
    },
    export: {
      method: 'GET',
      path: '/v1/organizer/events/:event/attendees/export',
      summary: 'Export attendees',
      description: 'A CSV of every attendee, streamed. `400 INVALID_FORMAT` for any format but `csv`.',
      pathParams: EventParams,
      query: z.object({ format: z.string().max(20).default('csv') }),
      responses: { 200: c.otherResponse({ contentType: 'text/csv', body: z.string() }), ...errors, ...errorResponses(404) },
      metadata: read,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/organizer/events/:event/attendees/:attendee',
      summary: 'Retrieve an attendee',
      description: 'Name, contact, ticket type, order code, ticket status, review, invite and ticket delivery statuses, check-ins and extra field answers. `{attendee}` is the attendee\'s uuid.',
      pathParams: AttendeeParams,
      responses: { 200: dataOf(OrganizerAttendeeDetailSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
    approve: {
      method: 'POST',
      path: '/v1/organizer/events/:event/attendees/:attendee/approve',
      summary: 'Approve an attendee',
      description: '`422 PAYMENT_PENDING` before payment; `409 INVALID_STATE` after a rejection or cancellation; approving again answers `200`.',
      pathParams: AttendeeParams,
      body: c.noBody(),
      responses: { 200: dataOf(OrganizerAttendeeDetailSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    reject: {
      method: 'POST',
      path: '/v1/organizer/events/:event/attendees/:attendee/reject',
      summary: 'Reject an attendee',
      description: 'Refunds what was paid for this attendee and voids the ticket. `409 INVALID_STATE` after approval.',
      pathParams: AttendeeParams,
      body: z.object({ reason: z.string().max(1000).nullable().optional() }).optional(),
      responses: { 200: dataOf(OrganizerAttendeeDetailSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    resend: {
      method: 'POST',
      path: '/v1/organizer/events/:event/attendees/:attendee/resend',
      summary: 'Resend the ticket',
      description: '`422 VALIDATION_ERROR` without email, pending review or cancelled; `429 TOO_MANY_REQUESTS` within 5 minutes of the last resend.',
      pathParams: AttendeeParams,
      body: c.noBody(),
      responses: { 200: z.object({ data: z.object({ sent: z.boolean() }), message: z.string() }), ...errors, ...errorResponses(404, 422) },
      metadata: write,
    },
  },
  { strictStatusCodes: true },
);
