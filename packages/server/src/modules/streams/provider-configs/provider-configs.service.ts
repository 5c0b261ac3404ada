import type { CursorPageQuery, ProviderConfig } from '@svc/contract';
import type { z } from 'zod';
import type { CreateProviderConfigSchema, UpdateProviderConfigSchema } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { ProviderConfigRow } from '../../../db/provider-configs.schema';
import type { AccountCredentials } from '../network/external/account-credentials';
import { ACCOUNT_PROVIDERS, secretsContext, type AccountNetworks, type SealedSecrets } from '../network/external/account-networks';
import { callNetwork, type VideoNetworks } from '../network/video-networks';
import * as repo from './provider-configs.repository';
import { serializeProviderConfig } from './provider-configs.serializer';

type CreateInput = z.infer<typeof CreateProviderConfigSchema>;
type UpdateInput = z.infer<typeof UpdateProviderConfigSchema>;
export type ProviderConfigDeps = Pick<AppContext, 'db' | 'secrets'> & { videoNetworks: VideoNetworks; baseUrl: string; now: () => Date };

function accountsOf(deps: ProviderConfigDeps): AccountNetworks {
  const accounts = deps.videoNetworks.accounts;
  if (!accounts) throw new Error('this server has no store for video accounts');
  return accounts;
}

const seal = (deps: ProviderConfigDeps, id: string, c: AccountCredentials) =>
  deps.secrets.encrypt(
    JSON.stringify({
      apiToken: c.apiToken,
      signingKeyPem: c.signingKey.pem,
      webhookSecret: c.webhookSecret,
      notificationSecret: c.notificationSecret,
    } satisfies SealedSecrets),
    secretsContext(id),
  );

function credentialsOf(deps: ProviderConfigDeps, row: ProviderConfigRow): AccountCredentials {
  const s = JSON.parse(deps.secrets.decrypt(row.secrets_sealed, secretsContext(row.id))) as SealedSecrets;
  return {
    configId: row.id,
    accountId: row.account_id,
    customerCode: row.customer_code,
    apiToken: s.apiToken,
    signingKey: { id: row.signing_key_id, pem: s.signingKeyPem },
    webhookSecret: s.webhookSecret,
    notificationSecret: s.notificationSecret,
  };
}

/** The credentials are tried on the provider before they are kept: a refusal is `422 provider_rejected`. */
const verify = (deps: ProviderConfigDeps, credentials: AccountCredentials) =>
  callNetwork(() => accountsOf(deps).networkFor(credentials).verifyCredentials());

async function getRow(deps: ProviderConfigDeps, scope: Scope, id: string, forUpdate = false, db = deps.db) {
  const row = isIdOf('provider_configuration', id) ? await repo.findProviderConfig(db, scope, id, { forUpdate }) : undefined;
  if (!row) throw ApiError.notFound('provider configuration', id);
  return row;
}

export async function createProviderConfig(deps: ProviderConfigDeps, scope: Scope, input: CreateInput): Promise<ProviderConfig> {
  if (!ACCOUNT_PROVIDERS.includes(input.provider)) {
    throw ApiError.of('validation_failed', {
      message: `This server does not speak to the provider '${input.provider}'.`,
      param: 'provider',
      details: { provider: [`Must be one of: ${ACCOUNT_PROVIDERS.join(', ')}.`] },
    });
  }
  const id = newId('provider_configuration');
  const credentials: AccountCredentials = {
    configId: id,
    accountId: input.account_id,
    customerCode: input.customer_code,
    apiToken: input.api_token,
    signingKey: input.signing_key,
    webhookSecret: input.webhook_secret,
    notificationSecret: input.notification_secret,
  };
  await verify(deps, credentials);
  const now = deps.now();
  const row = await repo.insertProviderConfig(deps.db, scope, {
    id,
    provider: input.provider,
    account_id: input.account_id,
    customer_code: input.customer_code,
    signing_key_id: input.signing_key.id,
    secrets_sealed: seal(deps, id, credentials),
    created_at: now,
    updated_at: now,
  });
  return serializeProviderConfig(deps.baseUrl, row);
}

export async function retrieveProviderConfig(deps: ProviderConfigDeps, scope: Scope, id: string): Promise<ProviderConfig> {
  return serializeProviderConfig(deps.baseUrl, await getRow(deps, scope, id));
}

export async function listProviderConfigs(deps: ProviderConfigDeps, scope: Scope, page: CursorPageQuery) {
  const result = await repo.listProviderConfigs(deps.db, scope, page);
  return { ...result, data: result.data.map((row) => serializeProviderConfig(deps.baseUrl, row)) };
}

/** Rotates secrets: a new token or signing key is tried on the provider first; other processes see it within 30 s. */
export async function updateProviderConfig(deps: ProviderConfigDeps, scope: Scope, id: string, input: UpdateInput): Promise<ProviderConfig> {
  const current = await getRow(deps, scope, id);
  const before = credentialsOf(deps, current);
  const next: AccountCredentials = {
    ...before,
    customerCode: input.customer_code ?? before.customerCode,
    apiToken: input.api_token ?? before.apiToken,
    signingKey: input.signing_key ?? before.signingKey,
    webhookSecret: input.webhook_secret ?? before.webhookSecret,
    notificationSecret: input.notification_secret ?? before.notificationSecret,
  };
  if (input.api_token !== undefined || input.signing_key !== undefined) await verify(deps, next);
  const row = await deps.db.transaction().execute(async (trx) => {
    await getRow(deps, scope, id, true, trx);
    return repo.updateProviderConfig(trx, scope, id, {
      customer_code: next.customerCode,
      signing_key_id: next.signingKey.id,
      secrets_sealed: seal(deps, id, next),
      updated_at: deps.now(),
    });
  });
  accountsOf(deps).forget(id);
  return serializeProviderConfig(deps.baseUrl, row);
}

/** Refused while the settings choose it or objects made on it remain: they stay on the network that made them. */
export async function deleteProviderConfig(deps: ProviderConfigDeps, scope: Scope, id: string) {
  await deps.db.transaction().execute(async (trx) => {
    await getRow(deps, scope, id, true, trx);
    const chosen = await trx
      .selectFrom('stream_settings')
      .select('tenant_id')
      .where('provider_config_id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (chosen) {
      throw ApiError.of('provider_config_in_use', { message: 'The Streams settings choose this configuration; choose another `live_network` first.' });
    }
    if (await repo.providerConfigInUse(trx, scope, id)) {
      throw ApiError.of('provider_config_in_use', { message: 'Live streams or assets made on this account still exist; delete them first.' });
    }
    await repo.deleteProviderConfig(trx, scope, id);
  });
  accountsOf(deps).forget(id);
  return { id, object: 'provider_config' as const, deleted: true as const };
}
