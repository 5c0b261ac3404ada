import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { ExternalIdSchema, MetadataFilterSchema } from '../common/metadata';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import {
  CommerceSettingsSchema,
  CreateProductSchema,
  CreateVariantSchema,
  PRODUCT_KINDS,
  PRODUCT_STATUSES,
  ProductSchema,
  PublicProductSchema,
  UpdateCommerceSettingsSchema,
  UpdateProductSchema,
  UpdateVariantSchema,
  VariantSchema,
} from './products.schemas';

const c = initContract();

const credentials = ['secret', 'restricted', 'user'] as const;
const read = access({ auth: 'tenant', credentials, scope: 'commerce:read', permission: 'commerce:read', product: 'commerce' });
const write = access({ auth: 'tenant', credentials, scope: 'commerce:write', permission: 'commerce:write', product: 'commerce' });
const publicRead = access({
  auth: 'tenant',
  credentials: ['secret', 'restricted', 'publishable', 'tenant-header', 'user'],
  scope: 'commerce:read',
  product: 'commerce',
});
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });

export const commerceProductsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/commerce/products',
      summary: 'Create a product',
      description:
        'A physical or digital product of one organization, with up to 100 variants (`sku` unique per environment without case: `409 sku_taken`). ' +
        'It starts `draft`; publishing needs an active variant and, for a `digital` product, a grant (`422`, `param` `variants` / `grants`). ' +
        'Grants name live streams (`ls`) and assets (`ast`) of the environment (unknown: `404`).',
      body: CreateProductSchema,
      responses: { 201: dataOf(ProductSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    list: {
      method: 'GET',
      path: '/v1/commerce/products',
      summary: 'List products',
      description: 'Newest first, with their variants; filter by `organization`, `status`, `kind` and `metadata[key]=value`.',
      query: CursorPageQuerySchema.extend({
        organization: z.string().max(255).optional(),
        status: z.enum(PRODUCT_STATUSES).optional(),
        kind: z.enum(PRODUCT_KINDS).optional(),
        metadata: MetadataFilterSchema,
      }),
      responses: { 200: cursorListOf(ProductSchema), ...errors, ...errorResponses(422) },
      metadata: read,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/commerce/products/:id',
      summary: 'Retrieve a product',
      description: 'One product with its variants, their stock, reservations and sales.',
      pathParams: IdParams,
      responses: { 200: dataOf(ProductSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
    retrieveByExternalId: {
      method: 'GET',
      path: '/v1/commerce/products/external/:external_id',
      summary: 'Retrieve a product by external id',
      description: 'The product whose `external_id` is the one given.',
      pathParams: z.object({ external_id: ExternalIdSchema }),
      responses: { 200: dataOf(ProductSchema), ...errors, ...errorResponses(404, 422) },
      metadata: read,
    },
    update: {
      method: 'PATCH',
      path: '/v1/commerce/products/:id',
      summary: 'Update a product',
      description:
        'Changes any field but `kind`, `organization` and `variants` (variants have their own routes). `status: published` needs an active variant ' +
        'and, for a digital product, a grant; `archived` stops sales (pending orders keep their units). Orders already made keep their prices.',
      pathParams: IdParams,
      body: UpdateProductSchema,
      responses: { 200: dataOf(ProductSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    createVariant: {
      method: 'POST',
      path: '/v1/commerce/products/:id/variants',
      summary: 'Add a variant',
      description: 'A new variant of the product (at most 100); `sku` unique per environment without case (`409 sku_taken`).',
      pathParams: IdParams,
      body: CreateVariantSchema,
      responses: { 201: dataOf(VariantSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    updateVariant: {
      method: 'PATCH',
      path: '/v1/commerce/variants/:id',
      summary: 'Update a variant',
      description:
        '`stock` below the units held by pending orders (`reserved`) is `422`, `param: stock`; the check and the change are one statement, ' +
        'so a concurrent order is either counted or refused.',
      pathParams: IdParams,
      body: UpdateVariantSchema,
      responses: { 200: dataOf(VariantSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
  },
  { strictStatusCodes: true },
);

export const commerceSettingsContract = c.router(
  {
    retrieve: {
      method: 'GET',
      path: '/v1/organizations/:id/commerce_settings',
      summary: 'Retrieve an organization\'s commerce settings',
      description: 'How long product orders hold stock, the flat shipping fee, and whether pickup is offered; defaults until changed.',
      pathParams: IdParams,
      responses: { 200: dataOf(CommerceSettingsSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
    update: {
      method: 'PATCH',
      path: '/v1/organizations/:id/commerce_settings',
      summary: 'Update an organization\'s commerce settings',
      description: '`hold_minutes` 5–1440 (default 15), `shipping_fee` ≥ 0 (default 0), `pickup_enabled` (default false), `pickup_instructions` up to 500 characters.',
      pathParams: IdParams,
      body: UpdateCommerceSettingsSchema,
      responses: { 200: dataOf(CommerceSettingsSchema), ...errors, ...errorResponses(404, 422) },
      metadata: write,
    },
  },
  { strictStatusCodes: true },
);

export const publicProductsContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/public/products',
      summary: 'List public products',
      description: 'Published products, newest published first; filter by `organization` (`org_` id or handle). Never a stock figure: a variant says only whether it is `available`.',
      query: CursorPageQuerySchema.extend({
        organization: z.string().max(255).optional(),
        ref: z.string().max(255).optional().describe('A promoter\'s tracking code, kept for attribution.'),
      }),
      responses: { 200: cursorListOf(PublicProductSchema), ...errors, ...errorResponses(422) },
      metadata: publicRead,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/public/products/:id',
      summary: 'Retrieve a public product',
      description: 'A published product; a draft, archived or unknown one is `404`.',
      pathParams: IdParams,
      query: z.object({ ref: z.string().max(255).optional() }),
      responses: { 200: dataOf(PublicProductSchema), ...errors, ...errorResponses(404) },
      metadata: publicRead,
    },
  },
  { strictStatusCodes: true },
);
