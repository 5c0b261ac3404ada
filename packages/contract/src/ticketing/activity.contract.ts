import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';

const c = initContract();

export const ACTIVITY_TYPES = ['purchase', 'event_published', 'event_sold_out', 'event_starting'] as const;

export const ActivityItemSchema = z.object({
  id: z.string(),
  object: z.literal('activity_item'),
  type: z.enum(ACTIVITY_TYPES),
  message: z.string(),
  /** The buyer's first name and initial (`purchase` only); never an amount or a contact. */
  actor: z.string().nullable(),
  quantity: z.number().int().nullable(),
  event: z.object({ id: z.string(), name: z.string(), slug: z.string(), starts_at: z.string() }),
  organization: z.object({ id: z.string(), name: z.string(), handle: z.string() }),
  created_at: z.string(),
});
export type ActivityItem = z.infer<typeof ActivityItemSchema>;

const slug = z.string().max(50);

export const activityContract = c.router(
  {
    feed: {
      method: 'GET',
      path: '/v1/activity/feed',
      summary: 'Activity feed',
      description: 'Recent purchases and event news of published events, newest first. `type`: `purchases`, `events` or `all`; filter by tenant, organization (handle) or event slug; page with `cursor`.',
      query: z.object({
        type: z.enum(['purchases', 'events', 'all']).nullish(),
        tenant_slug: slug.optional(),
        organization_slug: slug.optional(),
        event_slug: slug.optional(),
        limit: z.coerce.number().int().min(1).max(50).default(20),
        cursor: z.string().max(100).optional(),
      }),
      responses: {
        200: z.object({ data: z.array(ActivityItemSchema), meta: z.object({ has_more: z.boolean(), cursor: z.string().nullable() }) }),
        ...errorResponses(...COMMON_ERROR_STATUSES, 422),
      },
      metadata: access({ auth: 'tenant', credentials: ['secret', 'restricted', 'publishable', 'user'], scope: 'events:read', product: 'events' }),
    },
    attendeeDashboard: {
      method: 'GET',
      path: '/v1/attendee/dashboard',
      summary: 'My dashboard',
      description: 'For the signed-in customer: upcoming and past events with a valid ticket, valid tickets for upcoming events, and what they spent (paid minus refunded).',
      responses: {
        200: z.object({
          data: z.object({
            upcoming_events: z.number().int(),
            past_events: z.number().int(),
            active_tickets: z.number().int(),
            total_spent: z.number(),
            currency: z.string(),
          }),
        }),
        ...errorResponses(...COMMON_ERROR_STATUSES, 422),
      },
      metadata: access({ auth: 'tenant', credentials: ['user'], scope: 'events:read', product: 'events' }),
    },
  },
  { strictStatusCodes: true },
);
