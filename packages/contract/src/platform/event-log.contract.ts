import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { EventEnvelopeSchema } from '../events';

const c = initContract();

/** An ISO 8601 timestamp or Unix seconds. */
const InstantSchema = z.union([z.iso.datetime({ offset: true }), z.string().regex(/^\d{1,12}$/)]);

export const ListEventLogQuerySchema = CursorPageQuerySchema.extend({
  type: z
    .string()
    .max(100)
    .regex(/^(\*|[a-z0-9_]+(\.[a-z0-9_]+){0,2}(\.\*)?)$/, 'Use an event type, `*`, or a wildcard such as `streams.*`.')
    .optional()
    .describe('Event type, or a wildcard: `streams.*`, `streams.live_stream.*`.'),
  created: z
    .object({ gte: InstantSchema.optional(), lte: InstantSchema.optional(), gt: InstantSchema.optional(), lt: InstantSchema.optional() })
    .optional()
    .describe('`created[gte]`, `created[lte]`, `created[gt]`, `created[lt]`: ISO 8601 timestamps or Unix seconds.'),
  subject: z.string().max(255).optional().describe('Only events about this resource id.'),
  delivery_success: z
    .enum(['true', 'false'])
    .optional()
    .describe('`true`: every webhook delivery of the event succeeded. `false`: at least one is still pending or failed.'),
});

const read = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'platform:read' });

/**
 * The event log (`evt_` ids), read with secret and restricted keys. Its paths are `/v1/events`; the group is
 * named `eventLog` so that `events` names the ticketing product (docs/decisions.md, "The two /v1/events").
 */
export const eventLogContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/events',
      summary: 'List events',
      description:
        'The event log of the calling key\'s environment for the last 30 days, newest first. Events are kept 30 days, then purged.',
      query: ListEventLogQuerySchema,
      responses: { 200: cursorListOf(EventEnvelopeSchema), ...errorResponses(...COMMON_ERROR_STATUSES, 422) },
      metadata: read,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/events/:id',
      summary: 'Retrieve an event',
      description: 'One event of the log by its `evt_` id, exactly as it was delivered to webhook endpoints.',
      pathParams: z.object({ id: z.string().max(255) }),
      responses: { 200: dataOf(EventEnvelopeSchema), ...errorResponses(...COMMON_ERROR_STATUSES, 404, 422) },
      metadata: read,
    },
  },
  { strictStatusCodes: true },
);
