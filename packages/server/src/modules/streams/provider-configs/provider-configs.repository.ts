import type { CursorPageQuery } from '@svc/contract';
import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../../db/database';
import type { ProviderConfigRow, ProviderConfigsTable } from '../../../db/provider-configs.schema';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';

export type NewProviderConfig = Omit<Insertable<ProviderConfigsTable>, 'tenant_id' | 'livemode'>;

export async function insertProviderConfig(db: Executor, scope: Scope, row: NewProviderConfig): Promise<ProviderConfigRow> {
  return scoped(db, scope).insertInto('provider_configs', row).returningAll().executeTakeFirstOrThrow();
}

export async function findProviderConfig(db: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}) {
  let q = scoped(db, scope).selectFrom('provider_configs').selectAll().where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function listProviderConfigs(db: Executor, scope: Scope, page: CursorPageQuery) {
  return paginate(scoped(db, scope).selectFrom('provider_configs').selectAll(), 'provider_configs.id', page);
}

export async function updateProviderConfig(db: Executor, scope: Scope, id: string, changes: Updateable<ProviderConfigsTable>) {
  return scoped(db, scope).updateTable('provider_configs').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteProviderConfig(db: Executor, scope: Scope, id: string): Promise<void> {
  await scoped(db, scope).deleteFrom('provider_configs').where('id', '=', id).execute();
}

/** Whether live streams or assets made on the account still exist (their references start with its id). */
export async function providerConfigInUse(db: Executor, scope: Scope, id: string): Promise<boolean> {
  // `_` and `%` are LIKE wildcards: the id's own `_` is matched literally.
  const prefix = `${id.replace(/[\\%_]/g, '\\$&')}:%`;
  const stream = await scoped(db, scope)
    .selectFrom('live_streams')
    .select('id')
    .where('provider_ref', 'like', prefix)
    .where('deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  if (stream) return true;
  const asset = await scoped(db, scope)
    .selectFrom('assets')
    .select('id')
    .where('provider_asset_id', 'like', prefix)
    .where('deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return asset !== undefined;
}
