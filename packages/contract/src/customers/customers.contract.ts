import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { ExternalIdSchema, MetadataSchema } from '../common/metadata';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { EmailSchema, PhoneSchema } from '../identity/session.schemas';

const c = initContract();

export const CustomerObjectSchema = z
  .object({
    id: z.string().describe('Starts `cus_`.'),
    object: z.literal('customer'),
    livemode: z.boolean(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    name: z.string().nullable(),
    person: z.string().nullable().describe('The `usr_` id once the customer has signed in through the identity service.'),
    external_id: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
  })
  .meta({ id: 'Customer' });
export type Customer = z.infer<typeof CustomerObjectSchema>;

const fields = {
  email: EmailSchema.nullable().optional(),
  phone: PhoneSchema.nullable().optional(),
  name: z.string().max(200).nullable().optional(),
  metadata: MetadataSchema.optional(),
};

const read = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'customers:read', permission: 'customers:read' });
const write = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'customers:write', permission: 'customers:write' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });

export const customersContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/customers',
      summary: 'Create a customer',
      description: 'A customer of the tenant. Every field is optional: a customer with only an `external_id` is valid.',
      body: z.object({ ...fields, external_id: ExternalIdSchema.optional() }).meta({ id: 'CreateCustomerRequest' }),
      responses: { 201: dataOf(CustomerObjectSchema), ...errors, ...errorResponses(409, 422) },
      metadata: write,
    },
    list: {
      method: 'GET',
      path: '/v1/customers',
      summary: 'List customers',
      description: 'Newest first; filter by `email` or `phone`.',
      query: CursorPageQuerySchema.extend({ email: z.string().max(254).optional(), phone: z.string().max(20).optional() }),
      responses: { 200: cursorListOf(CustomerObjectSchema), ...errors, ...errorResponses(422) },
      metadata: read,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/customers/:id',
      summary: 'Retrieve a customer',
      description: 'One customer.',
      pathParams: IdParams,
      responses: { 200: dataOf(CustomerObjectSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
    retrieveByExternalId: {
      method: 'GET',
      path: '/v1/customers/external/:external_id',
      summary: 'Retrieve a customer by external id',
      description: 'The customer whose `external_id` is the one given.',
      pathParams: z.object({ external_id: ExternalIdSchema }),
      responses: { 200: dataOf(CustomerObjectSchema), ...errors, ...errorResponses(404, 422) },
      metadata: read,
    },
    update: {
      method: 'PATCH',
      path: '/v1/customers/:id',
      summary: 'Update a customer',
      description: 'Changes the fields given; `null` clears one.',
      pathParams: IdParams,
      body: z.object({ ...fields, external_id: ExternalIdSchema.nullable().optional() }).meta({ id: 'UpdateCustomerRequest' }),
      responses: { 200: dataOf(CustomerObjectSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    delete: {
      method: 'DELETE',
      path: '/v1/customers/:id',
      summary: 'Delete a customer',
      description: 'Deletes the customer and revokes their entitlements, in one transaction.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(z.object({ id: z.string(), object: z.literal('customer'), deleted: z.literal(true) })), ...errors, ...errorResponses(404) },
      metadata: write,
    },
  },
  { strictStatusCodes: true },
);
