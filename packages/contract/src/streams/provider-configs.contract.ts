import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';

const c = initContract();

/** Secret text a tenant pastes from its video account: kept encrypted, never returned. */
const secretText = (what: string) => z.string().min(1).max(4096).describe(`${what}. Stored encrypted; never returned.`);

export const ProviderSigningKeyInputSchema = z
  .object({
    id: z.string().min(1).max(255).describe('The signing key\'s id in the video account.'),
    pem: secretText('The signing key\'s private key: a base64-encoded PEM, as the account shows it'),
  })
  .meta({ id: 'ProviderSigningKeyInput' });

export const CreateProviderConfigSchema = z
  .object({
    provider: z.string().min(1).max(40).describe('The video provider of the account; see docs/streams.md for the ones this server speaks.'),
    account_id: z.string().min(1).max(255),
    customer_code: z.string().min(1).max(255).describe('The code in the account\'s playback host names.'),
    api_token: secretText('An API token of the account with rights to manage its video'),
    signing_key: ProviderSigningKeyInputSchema,
    webhook_secret: secretText('The account webhook\'s signing secret'),
    notification_secret: secretText('The shared secret the live-input notification channel sends in its authentication header'),
  })
  .meta({ id: 'CreateProviderConfigRequest' });

export const UpdateProviderConfigSchema = z
  .object({
    api_token: CreateProviderConfigSchema.shape.api_token.optional(),
    signing_key: ProviderSigningKeyInputSchema.optional(),
    webhook_secret: CreateProviderConfigSchema.shape.webhook_secret.optional(),
    notification_secret: CreateProviderConfigSchema.shape.notification_secret.optional(),
    customer_code: CreateProviderConfigSchema.shape.customer_code.optional(),
  })
  .meta({ id: 'UpdateProviderConfigRequest' });

export const ProviderConfigSchema = z
  .object({
    id: z.string().describe('Starts `mpc_`.'),
    object: z.literal('provider_config'),
    livemode: z.boolean(),
    provider: z.string(),
    account_id: z.string(),
    customer_code: z.string(),
    signing_key: z.object({ id: z.string() }).describe('The signing key\'s id; its private key is never returned.'),
    webhook_url: z
      .string()
      .describe('Where the account\'s webhooks and live-input notifications go: paste it into the provider\'s dashboard.'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'ProviderConfig' });
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;

/**
 * Which network new live-mode objects use. `standard` is the network the service runs for the tenant; an
 * `mpc_` id is the tenant's own video account. More network names may be added.
 */
export const LiveNetworkSchema = z
  .union([z.enum(['standard']), z.string().regex(/^mpc_[0-9a-z]{26}$/, 'Must be `standard` or a provider configuration id (`mpc_…`).')])
  .describe('`standard`, or the id (`mpc_…`) of a provider configuration of this environment.');

export const StreamSettingsSchema = z
  .object({
    object: z.literal('stream_settings'),
    livemode: z.boolean(),
    live_network: LiveNetworkSchema,
    updated_at: z.string().nullable(),
  })
  .meta({ id: 'StreamSettings' });
export type StreamSettings = z.infer<typeof StreamSettingsSchema>;

const read = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'platform:read', product: 'streams' });
const write = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'platform:write', product: 'streams' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });

export const providerConfigsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/streams/provider_configs',
      summary: 'Register your own video account',
      description:
        'Stores the credentials of the tenant\'s own video account for this environment. They are checked against the provider first: a token or signing key it refuses answers `422 provider_rejected`, an outage `502 provider_unavailable`. ' +
        'Every secret is kept encrypted and never returned. `webhook_url` is the address to paste into the provider\'s dashboard, for its account webhook and its live-input notifications alike.',
      body: CreateProviderConfigSchema,
      responses: { 201: dataOf(ProviderConfigSchema), ...errors, ...errorResponses(409, 422, 502) },
      metadata: write,
    },
    list: {
      method: 'GET',
      path: '/v1/streams/provider_configs',
      summary: 'List provider configurations',
      description: 'The environment\'s provider configurations, newest first.',
      query: CursorPageQuerySchema,
      responses: { 200: cursorListOf(ProviderConfigSchema), ...errors, ...errorResponses(422) },
      metadata: read,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/streams/provider_configs/:id',
      summary: 'Retrieve a provider configuration',
      description: 'One provider configuration, without its secrets.',
      pathParams: IdParams,
      responses: { 200: dataOf(ProviderConfigSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
    update: {
      method: 'PATCH',
      path: '/v1/streams/provider_configs/:id',
      summary: 'Rotate a provider configuration\'s secrets',
      description:
        'Replaces the secrets given (and the customer code). A new API token or signing key is checked against the provider first (`422 provider_rejected`).',
      pathParams: IdParams,
      body: UpdateProviderConfigSchema,
      responses: { 200: dataOf(ProviderConfigSchema), ...errors, ...errorResponses(404, 422, 502) },
      metadata: write,
    },
    delete: {
      method: 'DELETE',
      path: '/v1/streams/provider_configs/:id',
      summary: 'Delete a provider configuration',
      description:
        'Forgets the credentials. Refused with `409 provider_config_in_use` while the settings choose it or live streams or assets made on it still exist: objects stay on the network that made them.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(z.object({ id: z.string(), object: z.literal('provider_config'), deleted: z.literal(true) })), ...errors, ...errorResponses(404, 409) },
      metadata: write,
    },
  },
  { strictStatusCodes: true },
);

export const streamSettingsContract = c.router(
  {
    retrieve: {
      method: 'GET',
      path: '/v1/streams/settings',
      summary: 'Retrieve the Streams settings',
      description: 'The environment\'s Streams settings: which network new live-mode objects use.',
      responses: { 200: dataOf(StreamSettingsSchema), ...errors },
      metadata: read,
    },
    update: {
      method: 'PATCH',
      path: '/v1/streams/settings',
      summary: 'Choose the network for new live-mode objects',
      description:
        '`live_network: "standard"` or the id of a provider configuration of this environment (`404` for any other). Objects already made stay on the network that made them. ' +
        'Test mode always uses the simulated network, so a test-mode key may only choose `standard` (`422 validation_failed` otherwise).',
      body: z.object({ live_network: LiveNetworkSchema }).meta({ id: 'UpdateStreamSettingsRequest' }),
      responses: { 200: dataOf(StreamSettingsSchema), ...errors, ...errorResponses(404, 422) },
      metadata: write,
    },
  },
  { strictStatusCodes: true },
);
