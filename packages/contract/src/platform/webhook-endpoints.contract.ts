import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { SUPPORTED_API_VERSIONS } from '../common/api-version';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { ExternalIdSchema, MetadataFilterSchema, MetadataSchema } from '../common/metadata';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { EventEnvelopeSchema, EventFilterSchema } from '../events';
import { WEBHOOK_ENDPOINT_STATUSES, WebhookAttemptSchema, WebhookEndpointSchema } from './webhook-endpoints.schemas';

const c = initContract();

export const WEBHOOK_LIMITS = {
  maxUrlLength: 2048,
  maxEnabledEvents: 100,
  maxReplayEventIds: 100,
  /** A time-range replay re-sends at most this many events; narrow the range for more. */
  maxReplayEvents: 10_000,
  defaultSecretGraceSeconds: 86_400,
  maxSecretGraceSeconds: 604_800,
} as const;

const UrlSchema = z.url({ protocol: /^https?$/ }).max(WEBHOOK_LIMITS.maxUrlLength);
const EnabledEventsSchema = z.array(EventFilterSchema).min(1).max(WEBHOOK_LIMITS.maxEnabledEvents);

export const CreateWebhookEndpointSchema = z
  .object({
    url: UrlSchema.describe('Live mode: `https://` and a public address. Test mode also takes `http://` and loopback.'),
    enabled_events: EnabledEventsSchema,
    api_version: z.enum(SUPPORTED_API_VERSIONS).optional().describe('Defaults to the current version.'),
    description: z.string().max(500).optional(),
    external_id: ExternalIdSchema.optional(),
    metadata: MetadataSchema.optional(),
  })
  .meta({ id: 'CreateWebhookEndpointRequest' });

export const UpdateWebhookEndpointSchema = z
  .object({
    url: UrlSchema.optional(),
    enabled_events: EnabledEventsSchema.optional(),
    api_version: z.enum(SUPPORTED_API_VERSIONS).optional(),
    description: z.string().max(500).nullable().optional(),
    status: z.enum(WEBHOOK_ENDPOINT_STATUSES).optional().describe('`enabled` re-enables an endpoint the service disabled.'),
    external_id: ExternalIdSchema.nullable().optional(),
    metadata: MetadataSchema.optional(),
  })
  .meta({ id: 'UpdateWebhookEndpointRequest' });

const Timestamp = z.iso.datetime({ offset: true });

export const ReplayWebhookEventsSchema = z
  .object({
    event_ids: z.array(z.string().max(255)).min(1).max(WEBHOOK_LIMITS.maxReplayEventIds).optional(),
    created_from: Timestamp.optional(),
    created_to: Timestamp.optional(),
  })
  .refine((b) => (b.event_ids !== undefined) !== (b.created_from !== undefined || b.created_to !== undefined), {
    message: 'Send either `event_ids` or `created_from`/`created_to`.',
  })
  .refine((b) => b.event_ids !== undefined || (b.created_from !== undefined && b.created_to !== undefined), {
    message: 'A time range needs both `created_from` and `created_to`.',
    path: ['created_to'],
  })
  .meta({ id: 'ReplayWebhookEventsRequest' });

export const WebhookReplaySchema = z
  .object({
    object: z.literal('webhook_replay'),
    webhook_endpoint: z.string(),
    event_count: z.number().int().describe('Events queued for delivery, each with its original id.'),
  })
  .meta({ id: 'WebhookReplay' });

const IdParams = z.object({ id: z.string().max(255) });
/** Keys, restricted keys with the scope, and members whose role grants `developers:read` / `developers:write` (the console). */
const read = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'platform:read', permission: 'developers:read' });
const write = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'platform:write', permission: 'developers:write' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);

export const webhookEndpointsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/webhook_endpoints',
      summary: 'Create a webhook endpoint',
      description:
        'Registers a URL to receive the events named in `enabled_events`, in the environment of the calling key. The signing secret `whsec_…` is in `secret`, shown this once.',
      body: CreateWebhookEndpointSchema,
      responses: { 201: dataOf(WebhookEndpointSchema), ...errors, ...errorResponses(409, 422) },
      metadata: write,
    },
    list: {
      method: 'GET',
      path: '/v1/webhook_endpoints',
      summary: 'List webhook endpoints',
      description: 'The environment\'s webhook endpoints, newest first. Secrets are never listed.',
      query: CursorPageQuerySchema.extend({ metadata: MetadataFilterSchema }),
      responses: { 200: cursorListOf(WebhookEndpointSchema), ...errors, ...errorResponses(422) },
      metadata: read,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/webhook_endpoints/:id',
      summary: 'Retrieve a webhook endpoint',
      description: 'One endpoint, without its secret.',
      pathParams: IdParams,
      responses: { 200: dataOf(WebhookEndpointSchema), ...errors, ...errorResponses(404, 422) },
      metadata: read,
    },
    retrieveByExternalId: {
      method: 'GET',
      path: '/v1/webhook_endpoints/external/:external_id',
      summary: 'Retrieve a webhook endpoint by external id',
      description: 'The endpoint whose `external_id` is the one given.',
      pathParams: z.object({ external_id: ExternalIdSchema }),
      responses: { 200: dataOf(WebhookEndpointSchema), ...errors, ...errorResponses(404, 422) },
      metadata: read,
    },
    update: {
      method: 'PATCH',
      path: '/v1/webhook_endpoints/:id',
      summary: 'Update a webhook endpoint',
      description:
        'Changes the URL, event filters, description, metadata or status. Setting `status: enabled` re-enables an endpoint the service disabled; events missed meanwhile can be sent with replay.',
      pathParams: IdParams,
      body: UpdateWebhookEndpointSchema,
      responses: { 200: dataOf(WebhookEndpointSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    delete: {
      method: 'DELETE',
      path: '/v1/webhook_endpoints/:id',
      summary: 'Delete a webhook endpoint',
      description: 'Deletes the endpoint, its pending deliveries and its attempt log. Returns the deleted endpoint.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(WebhookEndpointSchema), ...errors, ...errorResponses(404) },
      metadata: write,
    },
    rollSecret: {
      method: 'POST',
      path: '/v1/webhook_endpoints/:id/roll_secret',
      summary: 'Roll a webhook endpoint\'s secret',
      description:
        'Makes a new signing secret (returned once in `secret`). The old one keeps signing for `expires_in_seconds` (default 24 hours, at most 7 days, 0 ends it now): meanwhile each delivery carries two `v1` signatures, new first.',
      pathParams: IdParams,
      body: z
        .object({ expires_in_seconds: z.number().int().min(0).max(WEBHOOK_LIMITS.maxSecretGraceSeconds).optional() })
        .optional(),
      responses: { 200: dataOf(WebhookEndpointSchema), ...errors, ...errorResponses(404, 422) },
      metadata: write,
    },
    replay: {
      method: 'POST',
      path: '/v1/webhook_endpoints/:id/replay',
      summary: 'Replay events to a webhook endpoint',
      description:
        'Sends past events again, with their original ids: either the events listed in `event_ids`, or every event between `created_from` and `created_to` that the endpoint\'s `enabled_events` match. Deliveries follow the usual retry schedule.',
      pathParams: IdParams,
      body: ReplayWebhookEventsSchema,
      responses: { 202: dataOf(WebhookReplaySchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    test: {
      method: 'POST',
      path: '/v1/webhook_endpoints/:id/test',
      summary: 'Send a test event',
      description:
        'Records a `platform.webhook_endpoint.tested` event about this endpoint and delivers it to this endpoint only, whatever its `enabled_events`. The result shows in the attempts list.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 202: dataOf(EventEnvelopeSchema), ...errors, ...errorResponses(404, 409) },
      metadata: write,
    },
    listAttempts: {
      method: 'GET',
      path: '/v1/webhook_endpoints/:id/attempts',
      summary: 'List delivery attempts',
      description: 'Every delivery attempt to the endpoint, newest first, with status, latency and the first 4 KB of the response.',
      pathParams: IdParams,
      query: CursorPageQuerySchema.extend({
        event: z.string().max(255).optional().describe('Only attempts to deliver this event.'),
      }),
      responses: { 200: cursorListOf(WebhookAttemptSchema), ...errors, ...errorResponses(404, 422) },
      metadata: read,
    },
  },
  { strictStatusCodes: true },
);
