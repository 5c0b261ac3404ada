import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { dataOf } from '../common/pagination';
import { FanbaseMembershipSchema, PublicFanbaseSchema } from './fanbases.schemas';

const c = initContract();

const errors = errorResponses(...COMMON_ERROR_STATUSES);
const FanbaseParams = z.object({ fanbase: z.string().max(255).describe("The `fan_` id or the organization's handle.") });
const readers = ['secret', 'restricted', 'publishable', 'tenant-header', 'user'] as const;
/** A signed-in customer: an identity access token, or a publishable key with a customer token (`sub` the `cus_` id). */
export const customerRoute = access({ auth: 'tenant', credentials: ['publishable', 'user'], scope: 'fanbases:write', customerToken: 'required', product: 'fanbases' });

export const fanbasesPublicContract = c.router(
  {
    retrievePublicFanbase: {
      method: 'GET',
      path: '/v1/public/fanbases/:fanbase',
      summary: 'Retrieve a public fanbase',
      description: "The fanbase, its published tiers (`available`, never counts) and the signed-in viewer's `membership`.",
      pathParams: FanbaseParams,
      responses: { 200: dataOf(PublicFanbaseSchema), ...errors, ...errorResponses(404) },
      metadata: access({ auth: 'tenant', credentials: readers, scope: 'fanbases:read', product: 'fanbases' }),
    },
    join: {
      method: 'POST',
      path: '/v1/public/fanbases/:fanbase/join',
      summary: 'Join a fanbase',
      description: 'The signed-in customer joins for free: `201` with the membership, `200` when already a member. `409 fanbase_closed` when joining is off.',
      pathParams: FanbaseParams,
      body: c.noBody(),
      responses: { 200: dataOf(FanbaseMembershipSchema), 201: dataOf(FanbaseMembershipSchema), ...errors, ...errorResponses(404, 409) },
      metadata: customerRoute,
    },
    leave: {
      method: 'DELETE',
      path: '/v1/public/fanbases/:fanbase/join',
      summary: 'Leave a fanbase',
      description: 'The membership becomes `left`; leaving twice changes nothing. `409 subscription_active` while a subscription is `active` or `past_due` (cancel it first).',
      pathParams: FanbaseParams,
      body: c.noBody(),
      responses: { 200: dataOf(FanbaseMembershipSchema), ...errors, ...errorResponses(404, 409) },
      metadata: customerRoute,
    },
    listMyMemberships: {
      method: 'GET',
      path: '/v1/fan/memberships',
      summary: "List the caller's memberships",
      description: "The signed-in customer's own memberships, newest first.",
      responses: { 200: z.object({ data: z.array(FanbaseMembershipSchema) }), ...errors },
      metadata: customerRoute,
    },
  },
  { strictStatusCodes: true },
);
