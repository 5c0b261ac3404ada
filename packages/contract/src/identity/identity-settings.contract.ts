import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { dataOf } from '../common/pagination';

const c = initContract();

export const IdentitySettingsSchema = z
  .object({
    object: z.literal('identity_settings'),
    livemode: z.boolean(),
    redirect_urls: z.array(z.string()).describe('Where sign-in may redirect (`redirect_to` must start with one of them).'),
  })
  .meta({ id: 'IdentitySettings' });

export const IdentityProviderSchema = z
  .object({
    object: z.literal('identity_provider'),
    name: z.string(),
    livemode: z.boolean(),
    issuer: z.string(),
    client_id: z.string(),
    scopes: z.array(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'IdentityProvider', description: 'An OpenID Connect provider; its client secret is never returned.' });

const read = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'identity:read', permission: 'identity:read' });
const write = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'identity:write', permission: 'identity:write' });
const secretOnly = access({ auth: 'tenant', credentials: ['secret'], scope: 'identity:write' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);

export const identitySettingsContract = c.router(
  {
    retrieveSettings: {
      method: 'GET',
      path: '/v1/identity/settings',
      summary: 'Retrieve identity settings',
      description: 'Sign-in settings of this environment.',
      responses: { 200: dataOf(IdentitySettingsSchema), ...errors },
      metadata: read,
    },
    updateSettings: {
      method: 'PATCH',
      path: '/v1/identity/settings',
      summary: 'Update identity settings',
      description: '`redirect_urls` replaces the allow-list of sign-in redirects (https, or http on loopback in test mode).',
      body: z.object({ redirect_urls: z.array(z.string().url().max(2000)).max(50) }).meta({ id: 'UpdateIdentitySettingsRequest' }),
      responses: { 200: dataOf(IdentitySettingsSchema), ...errors, ...errorResponses(422) },
      metadata: write,
    },
    putProvider: {
      method: 'PUT',
      path: '/v1/identity/providers/:name',
      summary: 'Configure an OpenID Connect provider',
      description: 'Creates or replaces a provider. The client secret is encrypted at rest and never returned. Secret key only.',
      pathParams: z.object({ name: z.string().regex(/^[a-z0-9_-]{1,64}$/) }),
      body: z
        .object({
          issuer: z.string().url().max(2000),
          client_id: z.string().min(1).max(500),
          client_secret: z.string().min(1).max(2000),
          scopes: z.array(z.string().regex(/^[\x21-\x7e]{1,100}$/)).max(20).optional(),
        })
        .meta({ id: 'PutIdentityProviderRequest' }),
      responses: { 200: dataOf(IdentityProviderSchema), ...errors, ...errorResponses(422) },
      metadata: secretOnly,
    },
    listProviders: {
      method: 'GET',
      path: '/v1/identity/providers',
      summary: 'List OpenID Connect providers',
      description: 'The providers of this environment, by name.',
      responses: { 200: z.object({ data: z.array(IdentityProviderSchema) }), ...errors },
      metadata: secretOnly,
    },
  },
  { strictStatusCodes: true },
);
