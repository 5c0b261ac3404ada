import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses, ErrorBodySchema } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';

const c = initContract();

export const RequestLogSchema = z
  .object({
    id: z.string().describe('The request id (`req_`), as the `Request-Id` header and an error\'s `request_id` gave it.'),
    object: z.literal('request_log'),
    livemode: z.boolean(),
    method: z.string(),
    path: z.string().describe('The path, never the query string (which may carry a token).'),
    status: z.number().int(),
    api_key: z.string().nullable().describe('The `key_` that made the request; `null` for a signed-in member or a tenant header.'),
    user: z.string().nullable().describe('The `usr_` member who made the request from their access token.'),
    latency_ms: z.number().int(),
    error: ErrorBodySchema.shape.error.nullable().describe('The error body answered, for a status of 400 and up.'),
    created_at: z.string(),
  })
  .meta({ id: 'RequestLog' });
export type RequestLog = z.infer<typeof RequestLogSchema>;

export const ListRequestLogsQuerySchema = CursorPageQuerySchema.extend({
  status: z
    .string()
    .regex(/^([1-5]\d\d|[1-5]xx|errors)$/, 'Use a status (`404`), a class (`4xx`) or `errors` (400 and up).')
    .optional()
    .describe('A status (`404`), a class (`4xx`, `5xx`) or `errors` (every status from 400).'),
  path: z.string().min(1).max(500).optional().describe('Requests whose path starts with this (`/v1/keys`).'),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  api_key: z.string().max(64).optional().describe('Only the requests of this `key_`.'),
});

/**
 * The tenant's developers read their own integration's requests: secret keys, restricted keys with
 * `platform:read`, and members whose role grants `developers:read` (owners, admins, developers).
 */
const read = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'platform:read', permission: 'developers:read' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);

export const requestLogsContract = c.router({
  list: {
    method: 'GET',
    path: '/v1/request_logs',
    summary: 'List API requests',
    description:
      'The API requests made in this environment with the tenant\'s keys or members\' tokens, newest first: method, path, status, key, ' +
      'latency and the error body. Kept for the days the operator sets (`SVC_REQUEST_LOG_RETENTION_DAYS`, 30 by default). Request ' +
      'bodies, headers and query strings are never kept. A frequent route (a heartbeat, an access check, a door scan) is kept only when it failed.',
    query: ListRequestLogsQuerySchema,
    responses: { 200: cursorListOf(RequestLogSchema), ...errors },
    metadata: read,
  },
  retrieve: {
    method: 'GET',
    path: '/v1/request_logs/:id',
    summary: 'Retrieve an API request',
    description: 'One request by its request id (`req_`): what the `Request-Id` header or an error\'s `request_id` named.',
    pathParams: z.object({ id: z.string().max(255) }),
    responses: { 200: dataOf(RequestLogSchema), ...errors, ...errorResponses(404) },
    metadata: read,
  },
});
