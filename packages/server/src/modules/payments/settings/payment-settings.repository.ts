import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';

export const findSettings = (db: Executor, scope: Scope) =>
  scoped(db, scope).selectFrom('payment_settings').selectAll().executeTakeFirst();

export const upsertSettings = (db: Executor, scope: Scope, set: { provider_configs?: string[]; late_payment_policy?: 'accept_if_available' | 'refund' }) =>
  db
    .insertInto('payment_settings')
    .values({
      tenant_id: scope.tenantId,
      livemode: scope.livemode,
      provider_configs: set.provider_configs ?? [],
      late_payment_policy: set.late_payment_policy ?? 'accept_if_available',
      updated_at: new Date(),
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'livemode']).doUpdateSet({ ...set, updated_at: new Date() }))
    .returningAll()
    .executeTakeFirstOrThrow();

export const findOrganizationSettings = (db: Executor, scope: Scope, organizationId: string) =>
  scoped(db, scope).selectFrom('organization_payment_settings').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();

export const upsertOrganizationSettings = (db: Executor, scope: Scope, organizationId: string, providerConfigs: string[] | null) =>
  db
    .insertInto('organization_payment_settings')
    .values({ organization_id: organizationId, tenant_id: scope.tenantId, livemode: scope.livemode, provider_configs: providerConfigs, updated_at: new Date() })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ provider_configs: providerConfigs, updated_at: new Date() }))
    .returningAll()
    .executeTakeFirstOrThrow();
