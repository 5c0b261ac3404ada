import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { brandingRead, brandingWrite } from './branding.contract';
import { CreateDomainSchema, DOMAIN_STATUSES, DomainSchema, SimulateDomainSchema, UpdateDomainSchema } from './domains.schemas';

const c = initContract();

const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });

export const domainsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/domains',
      summary: 'Add a custom domain',
      description:
        'Starts `pending_verification`: publish `verification` as a DNS TXT record and point the host at `dns_target`. ' +
        'A hostname verified by another tenant is `409 domain_taken`; an IP address, a wildcard or the deployment\'s own host `422 hostname_not_allowed`.',
      body: CreateDomainSchema,
      responses: { 201: dataOf(DomainSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: brandingWrite,
    },
    list: {
      method: 'GET',
      path: '/v1/domains',
      summary: 'List custom domains',
      description: 'Newest first; filter by `status` and `organization`.',
      query: CursorPageQuerySchema.extend({ status: z.enum(DOMAIN_STATUSES).optional(), organization: z.string().max(255).optional() }),
      responses: { 200: cursorListOf(DomainSchema), ...errors, ...errorResponses(422) },
      metadata: brandingRead,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/domains/:id',
      summary: 'Retrieve a custom domain',
      description: 'One domain.',
      pathParams: IdParams,
      responses: { 200: dataOf(DomainSchema), ...errors, ...errorResponses(404) },
      metadata: brandingRead,
    },
    update: {
      method: 'PATCH',
      path: '/v1/domains/:id',
      summary: 'Update a custom domain',
      description: 'Changes `serves`, `trusted_origin` or `metadata`; `playback` is for tenant-wide domains only.',
      pathParams: IdParams,
      body: UpdateDomainSchema,
      responses: { 200: dataOf(DomainSchema), ...errors, ...errorResponses(404, 422) },
      metadata: brandingWrite,
    },
    verify: {
      method: 'POST',
      path: '/v1/domains/:id/verify',
      summary: 'Check a custom domain now',
      description:
        'Looks the TXT record up (and, once verified, whether the host reaches this deployment) and answers the domain after the check. ' +
        'At most once a minute; sooner, the domain is answered as it is. A `failed` domain starts over at `pending_verification`.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(DomainSchema), ...errors, ...errorResponses(404, 409) },
      metadata: brandingWrite,
    },
    remove: {
      method: 'DELETE',
      path: '/v1/domains/:id',
      summary: 'Delete a custom domain',
      description: 'The host stops being served at once, on every process.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(z.object({ id: z.string(), object: z.literal('domain'), deleted: z.literal(true) })), ...errors, ...errorResponses(404) },
      metadata: brandingWrite,
    },
    simulate: {
      method: 'POST',
      path: '/v1/test_helpers/domains/:id/simulate',
      summary: 'Move a test-mode domain without DNS',
      description: '`verified`, `active` or `failed` (`txt_not_found`), with the same events as the checks. A hostname verified elsewhere is `409 domain_taken`.',
      pathParams: IdParams,
      body: SimulateDomainSchema,
      responses: { 200: dataOf(DomainSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: access({ auth: 'tenant', credentials: ['secret'], scope: 'platform:write', liveMode: false }),
    },
  },
  { strictStatusCodes: true },
);
