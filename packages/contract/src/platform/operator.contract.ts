import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { errorResponses } from '../common/errors';
import { access, PRODUCTS } from '../common/access';
import { ExternalIdSchema, MetadataFilterSchema, MetadataSchema } from '../common/metadata';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';

const c = initContract();

export const RateLimitsSchema = z
  .object({
    secret: z.number().int().min(1).max(100_000).describe('Requests per second for each secret or restricted key.'),
    publishable: z.number().int().min(1).max(100_000).describe('Requests per second for each publishable key and client.'),
  })
  .meta({ id: 'RateLimits' });

/** Where a tenant's video runs: the operator's choice (see docs/decisions.md, "Video networks"). */
export const TenantVideoSchema = z
  .object({
    live_network: z
      .enum(['simulated', 'media'])
      .nullable()
      .describe('Video network for the tenant\'s live-mode streams and assets; `null` (the default) refuses live-mode Streams with `409 video_network_not_configured` unless the server runs its own media network (`media`: nginx-rtmp and ffmpeg), which is then the default. Test mode always uses `simulated`.'),
    dedicated_environment: z
      .boolean()
      .describe('The tenant has its own video environment, so it may create playback signing keys (else `409 dedicated_environment_required`).'),
  })
  .meta({ id: 'TenantVideo' });

export const TenantSchema = z
  .object({
    id: z.string().describe('Starts `ten_`.'),
    object: z.literal('tenant'),
    name: z.string(),
    code: z.string().describe('Unique slug that names the tenant in `X-Tenant-Code` / `Svc-Tenant`.'),
    products: z.array(z.enum(PRODUCTS)).describe('The products switched on.'),
    rate_limits: RateLimitsSchema,
    video: TenantVideoSchema,
    external_id: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Tenant' });
export type Tenant = z.infer<typeof TenantSchema>;

const KeyPairSchema = z.object({ secret: z.string(), publishable: z.string() });

export const CreatedTenantSchema = z
  .object({ tenant: TenantSchema, keys: z.object({ test: KeyPairSchema, live: KeyPairSchema }) })
  .meta({ id: 'CreatedTenant', description: 'The new tenant and its first keys, shown in full this once.' });

export const TenantCodeSchema = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/, 'A code is 3 to 40 of a-z, 0-9 and `-`, starting and ending with a letter or digit.');

const ProductListSchema = z.array(z.enum(PRODUCTS)).max(PRODUCTS.length);
const IdParams = z.object({ id: z.string().max(255) });
const operator = access({ auth: 'operator' });
const errors = errorResponses(400, 401, 429, 500);

export const operatorContract = c.router(
  {
    createTenant: {
      method: 'POST',
      path: '/v1/operator/tenants',
      summary: 'Create a tenant',
      description: 'Creates a tenant with a secret and a publishable key in each environment. `products` omitted switches every product on.',
      body: z
        .object({
          name: z.string().min(1).max(200),
          code: TenantCodeSchema.optional().describe('Defaults to a slug of `name` (with a suffix when taken).'),
          products: ProductListSchema.optional(),
          rate_limits: RateLimitsSchema.partial().optional(),
          video: TenantVideoSchema.partial().optional(),
          external_id: ExternalIdSchema.optional(),
          metadata: MetadataSchema.optional(),
        })
        .meta({ id: 'CreateTenantRequest' }),
      responses: { 201: dataOf(CreatedTenantSchema), ...errors, ...errorResponses(409, 422) },
      metadata: operator,
    },
    listTenants: {
      method: 'GET',
      path: '/v1/operator/tenants',
      summary: 'List tenants',
      description: 'Every tenant, newest first, cursor-paginated; filter by `external_id` or `metadata[key]`.',
      query: CursorPageQuerySchema.extend({ external_id: ExternalIdSchema.optional(), metadata: MetadataFilterSchema }),
      responses: { 200: cursorListOf(TenantSchema), ...errors, ...errorResponses(422) },
      metadata: operator,
    },
    retrieveTenant: {
      method: 'GET',
      path: '/v1/operator/tenants/:id',
      summary: 'Retrieve a tenant',
      description: 'One tenant.',
      pathParams: IdParams,
      responses: { 200: dataOf(TenantSchema), ...errors, ...errorResponses(404) },
      metadata: operator,
    },
    retrieveTenantByExternalId: {
      method: 'GET',
      path: '/v1/operator/tenants/external/:external_id',
      summary: 'Retrieve a tenant by external id',
      description: 'The tenant whose `external_id` is the one given.',
      pathParams: z.object({ external_id: ExternalIdSchema }),
      responses: { 200: dataOf(TenantSchema), ...errors, ...errorResponses(404, 422) },
      metadata: operator,
    },
    updateTenant: {
      method: 'PATCH',
      path: '/v1/operator/tenants/:id',
      summary: 'Update a tenant',
      description:
        'Renames a tenant, switches products on and off (`products` replaces the list) or sets its plan (`rate_limits`). Changes apply on every server process at once.',
      pathParams: IdParams,
      body: z
        .object({
          name: z.string().min(1).max(200).optional(),
          code: TenantCodeSchema.optional(),
          products: ProductListSchema.optional(),
          rate_limits: RateLimitsSchema.partial().optional(),
          video: TenantVideoSchema.partial().optional(),
          external_id: ExternalIdSchema.nullable().optional(),
          metadata: MetadataSchema.optional(),
        })
        .meta({ id: 'UpdateTenantRequest' }),
      responses: { 200: dataOf(TenantSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: operator,
    },
  },
  { strictStatusCodes: true },
);
