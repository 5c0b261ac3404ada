import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { access, SCOPE_AREAS } from '../common/access';
import { ExternalIdSchema, MetadataSchema } from '../common/metadata';
import { dataOf, PageNumberQuerySchema, pageNumberListOf } from '../common/pagination';
import { ExpandQuerySchema } from '../common/expand';
import { LIMITS } from '../common/limits';

const c = initContract();

export const ScopeSchema = z.union([
  z.literal('platform:*'),
  z.templateLiteral([z.enum(SCOPE_AREAS), ':', z.enum(['read', 'write'])]),
]);

const IpOrCidrSchema = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]);

export const ApiKeySchema = z
  .object({
    id: z.string().describe('Starts `key_`.'),
    object: z.literal('api_key'),
    type: z.enum(['secret', 'restricted', 'publishable']),
    livemode: z.boolean(),
    name: z.string().nullable(),
    redacted: z.string().describe('The key\'s type prefix and its first 8 characters, e.g. `sk_test_AbCd1234…`.'),
    status: z.enum(['active', 'expired', 'revoked']),
    scopes: z.array(ScopeSchema).nullable().describe('Scopes of a restricted key; `null` for secret and publishable keys.'),
    ip_allowlist: z.array(z.string()).nullable(),
    // A getter makes the schema recursive while keeping its inferred type: expanded, this is an ApiKey.
    get created_by() {
      return z
        .union([z.string(), ApiKeySchema])
        .nullable()
        .describe('The key that created this one (expandable), or `null` when the operator or a signed-in member created it.');
    },
    expires_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    last_used_at: z.string().nullable().describe('Updated at most once a minute.'),
    created_at: z.string(),
    external_id: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    secret: z.string().optional().describe('The full key: returned once, when the key is created or rolled.'),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const CreateApiKeySchema = z
  .object({
    type: z.enum(['secret', 'restricted', 'publishable']),
    name: z.string().min(1).max(200).optional(),
    scopes: z.array(ScopeSchema).min(1).max(40).optional().describe('Required for `restricted` keys; not allowed on others.'),
    expires_at: z.iso.datetime({ offset: true }).optional(),
    ip_allowlist: z.array(IpOrCidrSchema).max(100).optional(),
    external_id: ExternalIdSchema.optional(),
    metadata: MetadataSchema.optional(),
  })
  .meta({ id: 'StoreApiKeyRequest' });

const IdParams = z.object({ id: z.string().max(255) });
const ExpandQuery = z.object({ expand: ExpandQuerySchema });

/** Keys, restricted keys with the scope, and members whose role grants `developers:read` / `developers:write` (the console). */
const read = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'platform:read', permission: 'developers:read' });
const write = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'platform:write', permission: 'developers:write' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);

export const keysContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/keys',
      summary: 'List API keys',
      description: 'The environment\'s API keys, newest first, paged by number. Secrets are never listed.',
      query: PageNumberQuerySchema.extend({ expand: ExpandQuerySchema }),
      responses: { 200: pageNumberListOf(ApiKeySchema), ...errors, ...errorResponses(422) },
      metadata: read,
    },
    create: {
      method: 'POST',
      path: '/v1/keys',
      summary: 'Create an API key',
      description:
        'Creates a key in the environment of the calling key. The full key is in `secret`, shown this once. A restricted caller may only create restricted keys within its own scopes, or publishable keys.',
      body: CreateApiKeySchema,
      responses: { 201: dataOf(ApiKeySchema), ...errors, ...errorResponses(409, 422) },
      metadata: write,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/keys/:id',
      summary: 'Retrieve an API key',
      description: 'One key, without its secret.',
      pathParams: IdParams,
      query: ExpandQuery,
      responses: { 200: dataOf(ApiKeySchema), ...errors, ...errorResponses(404, 422) },
      metadata: read,
    },
    retrieveByExternalId: {
      method: 'GET',
      path: '/v1/keys/external/:external_id',
      summary: 'Retrieve an API key by external id',
      description: 'The key whose `external_id` is the one given.',
      pathParams: z.object({ external_id: ExternalIdSchema }),
      query: ExpandQuery,
      responses: { 200: dataOf(ApiKeySchema), ...errors, ...errorResponses(404, 422) },
      metadata: read,
    },
    revoke: {
      method: 'DELETE',
      path: '/v1/keys/:id',
      summary: 'Revoke an API key',
      description: 'Revokes the key at once on every server process; it answers `401 api_key_revoked` from then on. Revoking is final.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(ApiKeySchema), ...errors, ...errorResponses(404, 409) },
      metadata: write,
    },
    roll: {
      method: 'POST',
      path: '/v1/keys/:id/roll',
      summary: 'Roll an API key',
      description:
        'Creates a new key like this one (the new `secret` is shown once) and makes the old key expire after `expires_in_seconds` (0, the default, expires it now; at most 7 days).',
      pathParams: IdParams,
      body: z
        .object({
          expires_in_seconds: z.number().int().min(0).max(LIMITS.keyRoll.maxExpiresInSeconds).optional(),
        })
        .optional(),
      responses: { 200: dataOf(ApiKeySchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
  },
  { strictStatusCodes: true },
);
