import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { ExternalIdSchema } from '../common/metadata';
import { CreatedRange, CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { FULFILLMENT_STATUSES } from '../commerce/orders.schemas';
import { ORDER_KINDS, ORDER_STATUSES, OrderSchema } from './orders.schemas';

const c = initContract();

/**
 * Orders of every kind (products-api § 3.1): a secret key sees them all; a restricted key the kinds its scopes
 * cover (`events:read` tickets, `commerce:read` products, `fanbases:read` subscriptions); a signed-in member the
 * kinds their permissions cover in each organization. Acting on an order needs its kind's `:write`.
 */
export const ORDER_READ_SCOPES = { scope: 'events:read', altScopes: ['commerce:read', 'fanbases:read'] } as const;
export const ORDER_WRITE_SCOPES = { scope: 'events:write', altScopes: ['commerce:write', 'fanbases:write'] } as const;
const read = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], ...ORDER_READ_SCOPES, permission: 'events:read', product: 'events' });
const write = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], ...ORDER_WRITE_SCOPES, permission: 'events:write', product: 'events' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });

export const ordersContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/orders',
      summary: 'List orders',
      description:
        'Newest first; filter by `kind`, `organization`, `event` (slug or uuid), `status`, `fulfillment_status`, `customer` and `created[gte|gt|lte|lt]`. ' +
        'A restricted key sees only the kinds its scopes cover (`events:read` tickets, `commerce:read` products, `fanbases:read` subscriptions); a member the kinds their permissions cover in each organization.',
      query: CursorPageQuerySchema.extend({
        kind: z.enum(ORDER_KINDS).optional(),
        organization: z.string().max(255).optional().describe('The `org_` id.'),
        event: z.string().max(255).optional(),
        status: z.enum(ORDER_STATUSES).optional(),
        fulfillment_status: z
          .enum(FULFILLMENT_STATUSES)
          .optional()
          .describe('Orders with something to ship or hand over (product orders, and bookings with add-ons) in this fulfilment status.'),
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
      description: 'One order with its line items, and a ticket order\'s attendees and their tickets (without secrets). An order of a kind the caller\'s scopes or permissions do not cover: `403 missing_scope` / `missing_permission`.',
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
      description: 'Cancels a `pending` order of any kind (with that kind\'s `:write`): a ticket order\'s seats and coupon use are released and its tickets void; a product order\'s stock reservation is released. Any other status: `409 INVALID_STATE`.',
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
      metadata: access({ auth: 'tenant', credentials: ['secret'], ...ORDER_WRITE_SCOPES, product: 'events', liveMode: false }),
    },
  },
  { strictStatusCodes: true },
);
