import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access, frequent, repeatable } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { dataOf } from '../common/pagination';
import { ContactHashSchema, CustomerSchema, SubjectSchema } from './entitlements.schemas';
import { AccessSessionSchema, OpenSessionSchema } from './sessions.schemas';

const c = initContract();

const credentials = ['secret', 'restricted', 'publishable'] as const;
const open = access({ auth: 'tenant', credentials, scope: 'access:write', product: 'streams', customerToken: 'required' });
const openPlaybackToken = access({
  auth: 'tenant',
  credentials,
  scope: 'streams:write',
  altScopes: ['access:write'],
  product: 'streams',
  customerToken: 'required',
});
const heartbeat = access({
  auth: 'tenant',
  credentials,
  scope: 'access:write',
  altScopes: ['streams:write'],
  product: 'streams',
  customerToken: 'required',
});
const end = access({ auth: 'tenant', credentials, scope: 'access:write', altScopes: ['streams:write'], customerToken: 'required' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const openErrors = errorResponses(404, 409, 422);
const IdParams = z.object({ id: z.string().max(255) });

const OPEN_DESCRIPTION =
  'Applies the entitlement, its limits and device rules, and answers the session with a `grant` (playback sources, failover, heartbeat interval). ' +
  'Errors: `403 access_denied` (`details.reason`), `403 device_limit_reached`, `403 view_limit_reached`, `409 concurrency_limit_reached`, ' +
  '`409 stream_disabled`, `409 asset_not_ready`, `409 no_playback_id`, `401 invalid_customer_token`, `403 product_not_enabled`. ' +
  'A refused open uses no view and no device slot. The same `device_id` reopening replaces its own session. ' +
  'From a browser: `Svc-Publishable-Key` plus `Authorization: Bearer <customer token>`, without `customer`.';

export const accessSessionsContract = c.router(
  {
    open: {
      method: 'POST',
      path: '/v1/access/sessions',
      summary: 'Open an access session',
      description: OPEN_DESCRIPTION,
      body: OpenSessionSchema,
      responses: { 201: dataOf(AccessSessionSchema), ...errors, ...openErrors },
      metadata: open,
    },
    createPlaybackToken: {
      method: 'POST',
      path: '/v1/streams/playback_tokens',
      summary: 'Create a playback token',
      description: `The Streams name for opening an access session: same body, rules and answer. ${OPEN_DESCRIPTION}`,
      body: OpenSessionSchema,
      responses: { 201: dataOf(AccessSessionSchema), ...errors, ...openErrors },
      metadata: openPlaybackToken,
    },
    heartbeat: {
      method: 'POST',
      path: '/v1/access/sessions/:id/heartbeat',
      summary: 'Send a session heartbeat',
      description:
        'Keeps the session alive for another 90 seconds and returns a fresh `grant` (swap the player to the newest link about every 5 minutes). ' +
        'Send one every `heartbeat_interval` seconds. An ended session answers `403 session_ended` with `details.reason` ' +
        '(`replaced_by_newer_session`, `missed_heartbeats`, `entitlement_inactive`, `client`). With a publishable key the customer token is checked every time.',
      pathParams: IdParams,
      body: SubjectSchema.optional(),
      responses: { 200: dataOf(AccessSessionSchema), ...errors, ...errorResponses(404, 422) },
      metadata: { ...heartbeat, ...frequent, ...repeatable },
    },
    end: {
      method: 'DELETE',
      path: '/v1/access/sessions/:id',
      summary: 'End an access session',
      description: 'Ends the session (reason `client`) and frees its concurrent slot. Ending an ended session answers it as it is.',
      pathParams: IdParams,
      query: z.object({ customer: CustomerSchema.optional(), contact_hash: ContactHashSchema.optional() }),
      body: c.noBody(),
      responses: { 200: dataOf(AccessSessionSchema), ...errors, ...errorResponses(404, 422) },
      // Ending an ended session answers it as it is, and nothing reopens a session.
      metadata: { ...end, ...repeatable },
    },
  },
  { strictStatusCodes: true },
);
