import type { Insertable, Updateable } from 'kysely';
import type { CursorPageQuery } from '@svc/contract';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import { payoutTargetIfAny } from '../payouts/payout-target';
import type { Executor } from '../../../db/database';
import type { PaymentProviderConfigRow, PaymentProviderConfigsTable } from '../../../db/payments.schema';

export const findConfig = (db: Executor, scope: Scope, id: string, forUpdate = false) => {
  const q = scoped(db, scope).selectFrom('payment_provider_configs').selectAll().where('id', '=', id);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
};

export const findConfigs = (db: Executor, scope: Scope, ids: readonly string[]): Promise<PaymentProviderConfigRow[]> =>
  ids.length === 0 ? Promise.resolve([]) : scoped(db, scope).selectFrom('payment_provider_configs').selectAll().where('id', 'in', [...ids]).execute();

export const insertConfig = (db: Executor, scope: Scope, row: Omit<Insertable<PaymentProviderConfigsTable>, 'tenant_id' | 'livemode'>) =>
  scoped(db, scope).insertInto('payment_provider_configs', row).returningAll().executeTakeFirstOrThrow();

export const updateConfig = (db: Executor, scope: Scope, id: string, set: Updateable<PaymentProviderConfigsTable>) =>
  scoped(db, scope).updateTable('payment_provider_configs').set({ ...set, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

export const deleteConfig = (db: Executor, scope: Scope, id: string) => scoped(db, scope).deleteFrom('payment_provider_configs').where('id', '=', id).execute();

export function listConfigs(db: Executor, scope: Scope, f: { type?: string; organization?: string; status?: string }, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('payment_provider_configs').selectAll();
  if (f.type) q = q.where('type', '=', f.type as PaymentProviderConfigRow['type']);
  if (f.organization) q = q.where('organization_id', '=', f.organization);
  if (f.status) q = q.where('status', '=', f.status as PaymentProviderConfigRow['status']);
  return paginate(q, 'payment_provider_configs.id', page);
}

/** What still depends on a configuration: a settings list naming it, or a payment, refund or payout still pending on it. */
export async function configInUse(db: Executor, scope: Scope, id: string): Promise<'settings' | 'pending' | null> {
  const listed = await scoped(db, scope).selectFrom('payment_settings').select('tenant_id').where((eb) => eb(eb.val(id), '=', eb.fn.any('provider_configs'))).executeTakeFirst();
  const orgListed = await scoped(db, scope)
    .selectFrom('organization_payment_settings')
    .select('organization_id')
    .where((eb) => eb(eb.val(id), '=', eb.fn.any('provider_configs')))
    .executeTakeFirst();
  if (listed || orgListed) return 'settings';
  const payment = await scoped(db, scope).selectFrom('payments').select('id').where('provider_config_id', '=', id).where('status', '=', 'pending').executeTakeFirst();
  const refund = await scoped(db, scope).selectFrom('refunds').select('id').where('provider_config_id', '=', id).where('status', '=', 'pending').executeTakeFirst();
  const payout = !payment && !refund && (await payoutTargetIfAny()?.pendingOn(db, scope, id));
  return payment || refund || payout ? 'pending' : null;
}
