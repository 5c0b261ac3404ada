import type { StreamSettings } from '@svc/contract';
import type { Executor } from '../../../db/database';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { ProviderConfigDeps } from '../provider-configs/provider-configs.service';
import { findProviderConfig } from '../provider-configs/provider-configs.repository';

/** The network new live-mode objects use when the settings were never changed. */
const STANDARD = 'standard';

async function readSettings(db: Executor, scope: Scope): Promise<StreamSettings> {
  const row = await db
    .selectFrom('stream_settings')
    .selectAll()
    .where('tenant_id', '=', scope.tenantId)
    .where('livemode', '=', scope.livemode)
    .executeTakeFirst();
  return {
    object: 'stream_settings',
    livemode: scope.livemode,
    live_network: row?.live_network ?? STANDARD,
    updated_at: row ? new Date(row.updated_at).toISOString() : null,
  };
}

export const retrieveStreamSettings = (deps: Pick<ProviderConfigDeps, 'db'>, scope: Scope) => readSettings(deps.db, scope);

/**
 * Chooses the network of new live-mode objects: `standard` or a provider configuration of the same
 * environment (locked, so a concurrent delete cannot leave the settings pointing nowhere).
 */
export async function updateStreamSettings(
  deps: Pick<ProviderConfigDeps, 'db' | 'now'>,
  scope: Scope,
  input: { live_network: string },
): Promise<StreamSettings> {
  const network = input.live_network;
  if (network !== STANDARD && !scope.livemode) {
    throw ApiError.of('validation_failed', {
      message: 'Test mode always uses the simulated network: its settings take `live_network: standard` only.',
      param: 'live_network',
      details: { live_network: ['Test mode takes `standard` only.'] },
    });
  }
  return deps.db.transaction().execute(async (trx) => {
    let configId: string | null = null;
    if (network !== STANDARD) {
      const config = isIdOf('provider_configuration', network) ? await findProviderConfig(trx, scope, network, { forUpdate: true }) : undefined;
      if (!config) throw ApiError.of('resource_not_found', { message: `No such provider configuration: '${network}'.`, param: 'live_network' });
      configId = config.id;
    }
    const values = { live_network: network, provider_config_id: configId, updated_at: deps.now() };
    await trx
      .insertInto('stream_settings')
      .values({ tenant_id: scope.tenantId, livemode: scope.livemode, ...values })
      .onConflict((oc) => oc.columns(['tenant_id', 'livemode']).doUpdateSet(values))
      .execute();
    return readSettings(trx, scope);
  });
}
