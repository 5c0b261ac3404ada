import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { dataOf } from '../common/pagination';
import { OrderSchema } from '../ticketing/orders.schemas';
import { CreateProductOrderSchema, FULFILLMENT_STATUSES, FulfillOrderSchema } from './orders.schemas';

const c = initContract();

const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });
const write = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'commerce:write', permission: 'commerce:write', product: 'commerce' });

export const productOrdersContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/orders',
      summary: 'Create a product order',
      description:
        'An order of products of one organization, in one currency, paid through the checkout page at `checkout_url` (a total of 0 is paid at once). ' +
        '`Idempotency-Key` is required. The stock is reserved in the same transaction, never oversold: not enough left is `409 out_of_stock` ' +
        '(`details.variants`, ids only). A line that cannot be ordered is `422 product_unavailable` (`details.reason`). Physical items are delivered ' +
        '(with `shipping_address` and the organization\'s `shipping_fee`) or picked up where allowed. The order holds its stock for the organization\'s `hold_minutes`.',
      body: CreateProductOrderSchema,
      responses: { 201: dataOf(OrderSchema), ...errors, ...errorResponses(404, 409, 422, 503) },
      metadata: access({
        auth: 'tenant',
        credentials: ['secret', 'restricted', 'publishable', 'user', 'tenant-header'],
        scope: 'commerce:write',
        product: 'commerce',
        idempotency: 'required',
      }),
    },
    fulfill: {
      method: 'POST',
      path: '/v1/orders/:id/fulfillment',
      summary: 'Move a product order\'s fulfilment',
      description:
        '`fulfilled` (packed, or ready for pickup), `shipped` (delivery orders, with `carrier`, `tracking_number`, `tracking_url`), `delivered`, `returned` ' +
        '(refunds nothing by itself). Only `paid` and `partially_refunded` orders move, and only forward: else `409 invalid_state_transition` with ' +
        '`details.status`. Each step emits `commerce.order.{fulfilled|shipped|delivered|returned}` and, unless `notify` is `false`, messages the buyer.',
      pathParams: IdParams,
      body: FulfillOrderSchema,
      responses: { 200: dataOf(OrderSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    exportOrders: {
      method: 'GET',
      path: '/v1/commerce/orders/export',
      summary: 'Export product orders to pack',
      description:
        'A CSV of paid product orders with this `fulfillment_status` (default `unfulfilled`: what is left to pack), oldest first: one row per line, ' +
        'with the order code, buyer, shipping method and address, SKU and units. Filter by `organization`. `400 INVALID_FORMAT` for any format but `csv`.',
      query: z.object({
        organization: z.string().max(255).optional(),
        fulfillment_status: z.enum(FULFILLMENT_STATUSES).default('unfulfilled'),
        format: z.string().max(20).default('csv'),
      }),
      responses: { 200: c.otherResponse({ contentType: 'text/csv', body: z.string() }), ...errors, ...errorResponses(404, 422) },
      metadata: access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'commerce:read', permission: 'commerce:read', product: 'commerce' }),
    },
  },
  { strictStatusCodes: true },
);
