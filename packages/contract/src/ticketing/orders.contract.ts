import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { ExternalIdSchema } from '../common/metadata';
import { CreatedRange, CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { ORDER_STATUSES, OrderSchema } from './orders.schemas';

const c = initContract();

/** Keys see every order of the environment; a signed-in member those of the organizations where their role grants the permission. */
const read = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'events:read', permission: 'events:read', product: 'events' });
const write = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'events:write', permission: 'events:write', product: 'events' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });

export const ordersContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/orders',
      summary: 'List orders',
      description: 'Newest first; filter by `event` (slug or uuid), `status`, `customer` and `created[gte|gt|lte|lt]`.',
      query: CursorPageQuerySchema.extend({
        event: z.string().max(255).optional(),
        status: z.enum(ORDER_STATUSES).optional(),
        customer: z.string().max(255).optional(),
        created: CreatedRange.optional(),
      }),
      responses: { 200: cursorListOf(OrderSchema), ...errors, ...errorResponses(422) },
      metadata: read,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/orders/:id',
      summary: 'Retrieve an order',
      description: 'One order with its attendees and their tickets (without secrets).',
      pathParams: IdParams,
      responses: { 200: dataOf(OrderSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
    retrieveByExternalId: {
      method: 'GET',
      path: '/v1/orders/external/:external_id',
      summary: 'Retrieve an order by external id',
      description: 'The order whose `external_id` is the one given.',
      pathParams: z.object({ external_id: ExternalIdSchema }),
      responses: { 200: dataOf(OrderSchema), ...errors, ...errorResponses(404, 422) },
      metadata: read,
    },
    cancel: {
      method: 'POST',
      path: '/v1/orders/:id/cancel',
      summary: 'Cancel an order',
      description: 'Cancels a `pending` order: its seats and coupon use are released and its tickets void. Any other status: `409 INVALID_STATE`.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(OrderSchema), ...errors, ...errorResponses(404, 409) },
      metadata: write,
    },
    expire: {
      method: 'POST',
      path: '/v1/test_helpers/orders/:id/expire',
      summary: 'Expire an order now',
      description: 'Test mode: expires a `pending` order as its `expires_at` would (`409 INVALID_STATE` otherwise).',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(OrderSchema), ...errors, ...errorResponses(404, 409) },
      metadata: access({ auth: 'tenant', credentials: ['secret'], scope: 'events:write', product: 'events', liveMode: false }),
    },
  },
  { strictStatusCodes: true },
);
