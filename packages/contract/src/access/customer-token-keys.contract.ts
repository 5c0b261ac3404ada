import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';

const c = initContract();

export const CustomerTokenKeySchema = z
  .object({
    id: z.string().describe('Starts `ctk_`; goes in the `kid` header of the customer tokens it signs.'),
    object: z.literal('customer_token_key'),
    name: z.string(),
    status: z.enum(['active', 'revoked']),
    livemode: z.boolean(),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
    secret: z
      .string()
      .optional()
      .describe('Starts `cts_`: the HMAC-SHA256 key (its UTF-8 bytes, prefix included). Returned once, on creation.'),
  })
  .meta({ id: 'CustomerTokenKey' });
export type CustomerTokenKey = z.infer<typeof CustomerTokenKeySchema>;

export const CreateCustomerTokenKeySchema = z
  .object({ name: z.string().min(1).max(200) })
  .meta({ id: 'CreateCustomerTokenKeyRequest' });

// Secret keys only: a customer token key lets its holder act as any of the tenant's viewers.
const secretOnly = access({ auth: 'tenant', credentials: ['secret'], scope: 'access:write' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);

export const customerTokenKeysContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/access/customer_token_keys',
      summary: 'Create a customer token key',
      description:
        'A key to sign customer tokens with (HS256, `kid` = `id`). `secret` is returned this once. Keys belong to one environment: ' +
        'a test-mode token does not work with a live publishable key. Secret key only.',
      body: CreateCustomerTokenKeySchema,
      responses: { 201: dataOf(CustomerTokenKeySchema), ...errors, ...errorResponses(422) },
      metadata: secretOnly,
    },
    list: {
      method: 'GET',
      path: '/v1/access/customer_token_keys',
      summary: 'List customer token keys',
      description: 'The environment\'s customer token keys, newest first, revoked ones included; never a secret. Secret key only.',
      query: CursorPageQuerySchema,
      responses: { 200: cursorListOf(CustomerTokenKeySchema), ...errors, ...errorResponses(422) },
      metadata: secretOnly,
    },
    revoke: {
      method: 'DELETE',
      path: '/v1/access/customer_token_keys/:id',
      summary: 'Revoke a customer token key',
      description:
        'Tokens signed with the key are refused at once on every server process (`401 invalid_customer_token`, reason `key_revoked`), ' +
        'so no new session opens with them; playback links already issued keep working until they expire. Revoking is final.',
      pathParams: z.object({ id: z.string().max(255) }),
      body: c.noBody(),
      responses: { 200: dataOf(CustomerTokenKeySchema), ...errors, ...errorResponses(404) },
      metadata: secretOnly,
    },
  },
  { strictStatusCodes: true },
);
