import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access, frequent } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { EventEnvelopeSchema } from '../events';
import { PublicTicketedEventSchema } from '../ticketing/public-events.schemas';

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
  object: z
    .literal('ticketed_event')
    .optional()
    .describe('With a secret or restricted key: list published ticketed events instead of the log (publishable keys and the tenant header always do).'),
  organization: z.string().max(64).optional().describe('Ticketed events only: those of this `org_` organization.'),
});

/**
 * Where a visitor of a public event page came from: the page's `utm_source`, or the referring site (a URL is
 * counted by its host). Counted with the page view; the organizer's analytics name the top ones.
 */
export const RetrieveEventQuerySchema = z.object({
  source: z
    .string()
    .max(255)
    .optional()
    .describe(
      'Public reads only: where the visitor came from, as a name (`instagram`) or the referring page\'s URL (counted by its host). ' +
        'Counted with the page view in the organizer\'s `traffic_sources`; omitted, the view counts as `direct`. The browser SDK sends it.',
    ),
  ref: z
    .string()
    .max(100)
    .optional()
    .describe('Public reads only: a promoter\'s tracking code (`?ref=CODE`). Counts one click per visitor, code and day; a valid active code answers `referral` beside the event.'),
});

/** What a public read with a valid `ref` answers beside the event: send `token` as the booking's `referral` (the last touch wins). */
export const ReferralSchema = z.object({ token: z.string(), expires_at: z.string() }).meta({ id: 'Referral' });

/**
 * The log takes secret keys, restricted keys with `platform:read` and members with `developers:read`; the public listing on the same paths takes a
 * publishable key or the tenant header, and restricted keys with `events:read` (the handler checks which applies).
 */
const read = access({
  auth: 'tenant',
  credentials: ['secret', 'restricted', 'publishable', 'tenant-header', 'user'],
  scope: 'platform:read',
  altScopes: ['events:read'],
  /** A signed-in member reads the log, as a key does, when their role grants it (the console). */
  permission: 'developers:read',
});

/** An entry of the log (`object: event`) or a published ticketed event (`object: ticketed_event`). */
const LogOrTicketedEventSchema = z.union([EventEnvelopeSchema, PublicTicketedEventSchema]);

/**
 * The event log (`evt_` ids), read with secret and restricted keys, and on the same paths the public listing of
 * published ticketed events (by slug). The group is named `eventLog`; the handler dispatches on the caller
 * (docs/decisions.md, "The two /v1/events").
 */
export const eventLogContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/events',
      summary: 'List events',
      description:
        'The event log of the calling key\'s environment for the last 30 days, newest first. Events are kept 30 days, then purged. ' +
        'With a publishable key or the tenant header alone (or a key and `object=ticketed_event`): the published ticketed events, newest first.',
      query: ListEventLogQuerySchema,
      responses: { 200: cursorListOf(LogOrTicketedEventSchema), ...errorResponses(...COMMON_ERROR_STATUSES, 422) },
      metadata: read,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/events/:id',
      summary: 'Retrieve an event',
      description:
        'One event of the log by its `evt_` id, exactly as it was delivered to webhook endpoints. Any other id is a published ' +
        'ticketed event\'s slug (or uuid), with its ticket types\' prices, sale windows and availability; its public read counts a page view.',
      pathParams: z.object({ id: z.string().max(255) }),
      query: RetrieveEventQuerySchema,
      responses: { 200: dataOf(LogOrTicketedEventSchema).extend({ referral: ReferralSchema.optional() }), ...errorResponses(...COMMON_ERROR_STATUSES, 404, 422) },
      // Every visitor of a public event page reads it: its log lines are counted into the periodic summary.
      metadata: { ...read, ...frequent },
    },
  },
  { strictStatusCodes: true },
);
