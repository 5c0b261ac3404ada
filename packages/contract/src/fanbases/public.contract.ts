import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { dataOf } from '../common/pagination';
import { FanbaseMembershipSchema, PublicFanbaseSchema, SubscriptionSchema } from './fanbases.schemas';

const c = initContract();

const errors = errorResponses(...COMMON_ERROR_STATUSES);
const FanbaseParams = z.object({ fanbase: z.string().max(255).describe("The `fan_` id or the organization's handle.") });
const readers = ['secret', 'restricted', 'publishable', 'tenant-header', 'user'] as const;
/** A signed-in customer: an identity access token, or a publishable key with a customer token (`sub` the `cus_` id). */
export const customerRoute = access({ auth: 'tenant', credentials: ['publishable', 'user'], scope: 'fanbases:write', customerToken: 'required', product: 'fanbases' });
const SubscriptionParams = z.object({ id: z.string().max(255) });
const fanAction = (summary: string, description: string) => ({
  method: 'POST' as const,
  summary,
  description: `${description} Another customer's subscription is \`404\`.`,
  pathParams: SubscriptionParams,
  responses: { 200: dataOf(SubscriptionSchema), ...errors, ...errorResponses(404, 409, 422) },
  metadata: customerRoute,
});

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
    subscribe: {
      method: 'POST',
      path: '/v1/public/fanbases/:fanbase/subscriptions',
      summary: 'Subscribe to a tier',
      description:
        'Joins the customer if needed and makes the subscription (`incomplete`) and its first order with a checkout session: pay at `checkout_url`. ' +
        'Another live subscription to the fanbase is `409 already_subscribed`; a tier that cannot be taken `422 tier_unavailable` (`details.reason`).',
      pathParams: FanbaseParams,
      body: z
        .object({
          tier: z.string().max(255),
          phone: z.string().regex(/^\+[1-9]\d{6,14}$/, 'An E.164 number, e.g. +254712345678.').nullable().optional().describe('Where M-Pesa renewal prompts go.'),
          redirect_url: z.url().max(2000).nullable().optional().describe('Where the checkout page sends the fan once paid.'),
        })
        .strict(),
      responses: { 201: dataOf(SubscriptionSchema), ...errors, ...errorResponses(404, 409, 422, 503) },
      metadata: access({ ...customerRoute.access, idempotency: 'required' }),
    },
    listMySubscriptions: {
      method: 'GET',
      path: '/v1/fan/subscriptions',
      summary: "List the caller's subscriptions",
      description: "The signed-in customer's own subscriptions, newest first.",
      responses: { 200: z.object({ data: z.array(SubscriptionSchema) }), ...errors },
      metadata: customerRoute,
    },
    cancelMySubscription: { ...fanAction('Cancel my subscription', 'At the period end, or now while `past_due` or `incomplete`.'), path: '/v1/fan/subscriptions/:id/cancel', body: c.noBody() },
    resumeMySubscription: { ...fanAction('Resume my subscription', 'Undoes a cancellation at the period end.'), path: '/v1/fan/subscriptions/:id/resume', body: c.noBody() },
    renewMySubscription: {
      ...fanAction('Renew my subscription now', "Opens the coming period's renewal order (or answers the open one): pay early, or during the grace, at `checkout_url`."),
      path: '/v1/fan/subscriptions/:id/renew',
      body: c.noBody(),
    },
    changeMySubscriptionTier: {
      ...fanAction('Change my tier', 'A published paid tier of the same interval, taking effect at the next renewal (`pending_tier`); no proration.'),
      path: '/v1/fan/subscriptions/:id/change_tier',
      body: z.object({ tier: z.string().max(255) }).strict(),
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
