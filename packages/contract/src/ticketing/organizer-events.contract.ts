import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { CreateTicketedEventSchema, EVENT_STATUSES, TicketedEventSchema, UpdateTicketedEventSchema } from './catalogue.schemas';

const c = initContract();

/** Organizer routes: a secret key, a restricted key with `events:*`, or a signed-in member with the permission. */
export const organizerRoute = (level: 'read' | 'write') =>
  access({
    auth: 'tenant',
    credentials: ['secret', 'restricted', 'user'],
    scope: `events:${level}`,
    permission: `events:${level}`,
    product: 'events',
  });
export const organizerErrors = errorResponses(...COMMON_ERROR_STATUSES);
export const EventParams = z.object({ event: z.string().max(255).describe("The event's slug or uuid.") });

export const ListOrganizerEventsQuerySchema = CursorPageQuerySchema.extend({
  organization: z.string().max(64).optional().describe('Only events of this `org_` organization.'),
  status: z.enum(EVENT_STATUSES).optional(),
});

export const organizerEventsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/organizer/events',
      summary: 'Create an event',
      description:
        'A ticketed event, `draft` until published. `slug` is made from the name when left out (with a suffix when taken); ' +
        "`timezone` defaults to the organization's, `currency` to KES, `hold_minutes` to 15.",
      body: CreateTicketedEventSchema,
      responses: { 201: dataOf(TicketedEventSchema), ...organizerErrors, ...errorResponses(403, 409, 422) },
      metadata: organizerRoute('write'),
    },
    list: {
      method: 'GET',
      path: '/v1/organizer/events',
      summary: 'List events',
      description: 'Newest first. A signed-in member sees the events of the organizations where their role may read them.',
      query: ListOrganizerEventsQuerySchema,
      responses: { 200: cursorListOf(TicketedEventSchema), ...organizerErrors, ...errorResponses(422) },
      metadata: organizerRoute('read'),
    },
    retrieve: {
      method: 'GET',
      path: '/v1/organizer/events/:event',
      summary: 'Retrieve an event',
      description: 'By slug or uuid.',
      pathParams: EventParams,
      responses: { 200: dataOf(TicketedEventSchema), ...organizerErrors, ...errorResponses(404) },
      metadata: organizerRoute('read'),
    },
    update: {
      method: 'PATCH',
      path: '/v1/organizer/events/:event',
      summary: 'Update an event',
      description: 'Changes the fields given. A capacity below the seats already held and sold is refused (`422`, `param: capacity`).',
      pathParams: EventParams,
      body: UpdateTicketedEventSchema,
      responses: { 200: dataOf(TicketedEventSchema), ...organizerErrors, ...errorResponses(404, 409, 422) },
      metadata: organizerRoute('write'),
    },
    publish: {
      method: 'POST',
      path: '/v1/organizer/events/:event/publish',
      summary: 'Publish an event',
      description:
        'A draft event becomes `published`: public reads show it and bookings open. It needs at least one ticket type ' +
        '(`409 event_has_no_ticket_types`). Publishing a published event answers it again; a cancelled or completed one is ' +
        '`409 invalid_state_transition`. Sends `events.event.published`.',
      pathParams: EventParams,
      body: c.noBody(),
      responses: { 200: dataOf(TicketedEventSchema), ...organizerErrors, ...errorResponses(404, 409) },
      metadata: organizerRoute('write'),
    },
  },
  { strictStatusCodes: true },
);
