import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access, frequent, repeatable } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { ExternalIdSchema, MetadataFilterSchema } from '../common/metadata';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import {
  AccessCheckRequestSchema,
  AccessCheckResultSchema,
  ContactHashSchema,
  CustomerSchema,
  ENTITLEMENT_STATUSES,
  EntitlementSchema,
  GrantEntitlementSchema,
} from './entitlements.schemas';

const c = initContract();

const read = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'access:read' });
const write = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'access:write' });
const grant = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'access:write', idempotency: 'required' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });

export const entitlementsContract = c.router(
  {
    grant: {
      method: 'POST',
      path: '/v1/access/entitlements',
      summary: 'Grant an entitlement',
      description:
        'Lets one customer use one live stream or asset, for a period and within limits. `Idempotency-Key` is required. ' +
        'A repeat grant with the same `source`, `source_ref`, customer and resource answers `200` with the existing entitlement ' +
        '(and moves `ends_at` later when the repeat carries a later one: `access.entitlement.extended`); ' +
        'a repeat of a revoked one is `409 entitlement_revoked`. A new one is `201`, `status: active`, with `access.entitlement.granted`.',
      body: GrantEntitlementSchema,
      responses: { 201: dataOf(EntitlementSchema), 200: dataOf(EntitlementSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: grant,
    },
    list: {
      method: 'GET',
      path: '/v1/access/entitlements',
      summary: 'List entitlements',
      description: 'Entitlements of the environment, newest first, filtered by customer, contact hash, resource, status or metadata.',
      query: CursorPageQuerySchema.extend({
        customer: CustomerSchema.optional(),
        contact_hash: ContactHashSchema.optional(),
        resource: z.string().max(255).optional().describe('A live stream or asset id.'),
        status: z.enum(ENTITLEMENT_STATUSES).optional(),
        metadata: MetadataFilterSchema,
      }),
      responses: { 200: cursorListOf(EntitlementSchema), ...errors, ...errorResponses(422) },
      metadata: read,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/access/entitlements/:id',
      summary: 'Retrieve an entitlement',
      description: 'One entitlement by id.',
      pathParams: IdParams,
      responses: { 200: dataOf(EntitlementSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
    retrieveByExternalId: {
      method: 'GET',
      path: '/v1/access/entitlements/external/:external_id',
      summary: 'Retrieve an entitlement by external id',
      description: 'The entitlement whose `external_id` is the one given.',
      pathParams: z.object({ external_id: ExternalIdSchema }),
      responses: { 200: dataOf(EntitlementSchema), ...errors, ...errorResponses(404, 422) },
      metadata: read,
    },
    revoke: {
      method: 'DELETE',
      path: '/v1/access/entitlements/:id',
      summary: 'Revoke an entitlement',
      description:
        'Takes access away for good (`status: revoked`, `access.entitlement.revoked`): checks and new sessions are refused at once, ' +
        'and open sessions end at their next heartbeat. Revoking a revoked entitlement answers it again.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(EntitlementSchema), ...errors, ...errorResponses(404) },
      metadata: write,
    },
    suspend: {
      method: 'POST',
      path: '/v1/access/entitlements/:id/suspend',
      summary: 'Suspend an entitlement',
      description:
        'Pauses an `active` entitlement (`access.entitlement.suspended`); open sessions end at their next heartbeat. ' +
        'Suspending a suspended one changes nothing; a revoked or expired one is `409 invalid_state_transition`.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(EntitlementSchema), ...errors, ...errorResponses(404, 409) },
      metadata: write,
    },
    resume: {
      method: 'POST',
      path: '/v1/access/entitlements/:id/resume',
      summary: 'Resume an entitlement',
      description:
        'Restores a `suspended` entitlement to `active` (`access.entitlement.resumed`), or to `expired` when its end passed meanwhile. ' +
        'Resuming an active one changes nothing; a revoked or expired one is `409 invalid_state_transition`.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(EntitlementSchema), ...errors, ...errorResponses(404, 409) },
      metadata: write,
    },
  },
  { strictStatusCodes: true },
);

export const accessChecksContract = c.router(
  {
    check: {
      method: 'POST',
      path: '/v1/access/check',
      summary: 'Check access',
      description:
        'Whether the customer may use the resource now, and if not why: `no_entitlement`, `expired`, `revoked`, `suspended`, ' +
        '`not_started`, `country_not_allowed`, `domain_not_allowed`. Send `country` and `domain` when the entitlement may restrict them: ' +
        'a restricted entitlement refuses a check that does not say.',
      body: AccessCheckRequestSchema,
      responses: { 200: dataOf(AccessCheckResultSchema), ...errors, ...errorResponses(422) },
      // A read sent as POST (its body is the question): repeating it changes nothing. A player's server asks it for
      // every viewer, as often as heartbeats: its log lines are counted into the periodic summary.
      metadata: { ...read, ...repeatable, ...frequent },
    },
  },
  { strictStatusCodes: true },
);
