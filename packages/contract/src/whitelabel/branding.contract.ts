import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { dataOf } from '../common/pagination';
import {
  BrandingSchema,
  EffectiveBrandingSchema,
  OrganizationBrandingSchema,
  UpdateBrandingSchema,
  UpdateOrganizationBrandingSchema,
} from './branding.schemas';

const c = initContract();

// Branding belongs to the platform: restricted keys need `platform:*` scopes, members `branding:*`.
export const brandingRead = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'platform:read', permission: 'branding:read' });
export const brandingWrite = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'platform:write', permission: 'branding:write' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });

export const brandingContract = c.router(
  {
    retrieve: {
      method: 'GET',
      path: '/v1/branding',
      summary: 'Retrieve the tenant\'s branding',
      description: 'One per environment; until changed it holds the tenant\'s name and nothing else.',
      responses: { 200: dataOf(BrandingSchema), ...errors },
      metadata: brandingRead,
    },
    update: {
      method: 'PATCH',
      path: '/v1/branding',
      summary: 'Update the tenant\'s branding',
      description:
        'Changes the fields given; `null` clears one. URLs must be `https://` in live mode and carry no credentials; colours are `#RRGGBB`. ' +
        'Text on the primary colour below WCAG AA contrast (4.5:1) is accepted with a `low_contrast` entry in `warnings`.',
      body: UpdateBrandingSchema,
      responses: { 200: dataOf(BrandingSchema), ...errors, ...errorResponses(422) },
      metadata: brandingWrite,
    },
    retrieveOrganization: {
      method: 'GET',
      path: '/v1/organizations/:id/branding',
      summary: 'Retrieve an organization\'s branding',
      description: 'Every field `null` inherits the tenant\'s.',
      pathParams: IdParams,
      responses: { 200: dataOf(OrganizationBrandingSchema), ...errors, ...errorResponses(404) },
      metadata: brandingRead,
    },
    updateOrganization: {
      method: 'PATCH',
      path: '/v1/organizations/:id/branding',
      summary: 'Update an organization\'s branding',
      description: 'As the tenant\'s; `null` returns a field to the tenant\'s value. A member needs `branding:write` in this organization.',
      pathParams: IdParams,
      body: UpdateOrganizationBrandingSchema,
      responses: { 200: dataOf(OrganizationBrandingSchema), ...errors, ...errorResponses(404, 422) },
      metadata: brandingWrite,
    },
    retrievePublic: {
      method: 'GET',
      path: '/v1/public/branding',
      summary: 'Retrieve the effective branding',
      description:
        'What the service\'s pages and messages show: field by field the organization\'s, else the tenant\'s, else a neutral default. ' +
        'On an organization\'s custom domain the organization is the domain\'s.',
      query: z.object({ organization: z.string().max(255).optional() }),
      responses: { 200: dataOf(EffectiveBrandingSchema), ...errors, ...errorResponses(404) },
      metadata: access({ auth: 'tenant', credentials: ['secret', 'restricted', 'publishable', 'tenant-header'], scope: 'platform:read' }),
    },
  },
  { strictStatusCodes: true },
);
