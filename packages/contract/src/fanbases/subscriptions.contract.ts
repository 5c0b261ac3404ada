import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { ExpandQuerySchema } from '../common/expand';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { MetadataFilterSchema } from '../common/metadata';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { fanbasesRoute } from './fanbases.contract';
import { SUBSCRIPTION_STATUSES, SubscriptionSchema } from './fanbases.schemas';

const c = initContract();

const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });
const ExpandQuery = z.object({ expand: ExpandQuerySchema });

export const subscriptionsContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/subscriptions',
      summary: 'List subscriptions',
      description: 'Newest first; filter by `fanbase`, `customer`, `status`, `tier` and metadata; `expand[]=customer`.',
      query: CursorPageQuerySchema.extend({
        fanbase: z.string().max(255).optional(),
        customer: z.string().max(255).optional(),
        status: z.enum(SUBSCRIPTION_STATUSES).optional(),
        tier: z.string().max(255).optional(),
        metadata: MetadataFilterSchema,
        expand: ExpandQuerySchema,
      }),
      responses: { 200: cursorListOf(SubscriptionSchema), ...errors, ...errorResponses(422) },
      metadata: fanbasesRoute('read'),
    },
    retrieve: {
      method: 'GET',
      path: '/v1/subscriptions/:id',
      summary: 'Retrieve a subscription',
      description: 'One subscription with its period, renewal state and checkout page while unpaid; `expand[]=customer`.',
      pathParams: IdParams,
      query: ExpandQuery,
      responses: { 200: dataOf(SubscriptionSchema), ...errors, ...errorResponses(404) },
      metadata: fanbasesRoute('read'),
    },
    cancel: {
      method: 'POST',
      path: '/v1/subscriptions/:id/cancel',
      summary: 'Cancel a subscription',
      description:
        'At the period end (`at_period_end`, default true: access continues until then) or now (`cancelled`, entitlements revoked, no refund). ' +
        'A `past_due` or `incomplete` subscription is cancelled now. A cancelled one is answered as it is; an expired one is `409 invalid_state_transition`.',
      pathParams: IdParams,
      body: z.object({ at_period_end: z.boolean().optional() }).strict().nullish(),
      responses: { 200: dataOf(SubscriptionSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: fanbasesRoute('write'),
    },
    resume: {
      method: 'POST',
      path: '/v1/subscriptions/:id/resume',
      summary: 'Resume a subscription',
      description: 'Undoes a cancellation at the period end; the subscription renews again. Anything but an `active` subscription is `409 invalid_state_transition`.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(SubscriptionSchema), ...errors, ...errorResponses(404, 409) },
      metadata: fanbasesRoute('write'),
    },
    advance: {
      method: 'POST',
      path: '/v1/test_helpers/subscriptions/:id/advance',
      summary: "Move a test-mode subscription's clock",
      description:
        "Runs the renewal job at the subscription's next `renewal_notice` (the renewal order and its message), `period_end` (unpaid: `past_due`) or " +
        '`grace_end` (unpaid: `expired`), and answers the subscription after it. Only `active` and `past_due` subscriptions with a period move.',
      pathParams: IdParams,
      body: z.object({ to: z.enum(['renewal_notice', 'period_end', 'grace_end']) }).strict(),
      responses: { 200: dataOf(SubscriptionSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: access({ auth: 'tenant', credentials: ['secret'], scope: 'fanbases:write', product: 'fanbases', liveMode: false }),
    },
  },
  { strictStatusCodes: true },
);
