import type { OrganizationPaymentSettings, PaymentSettings } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { PaymentProviderConfigRow } from '../../../db/payments.schema';
import { findConfigsForSettings } from '../provider-configs/provider-configs.service';
import { findOrganizationSettings, findSettings, upsertOrganizationSettings, upsertSettings } from './payment-settings.repository';

/** What becomes of a payment confirmed after its order expired (products-api § 1.8). */
export async function latePaymentPolicy(db: Executor, scope: Scope): Promise<'accept_if_available' | 'refund'> {
  return (await findSettings(db, scope))?.late_payment_policy ?? 'accept_if_available';
}

const iso = (d: Date | string | undefined) => (d === undefined ? null : new Date(d).toISOString());

export async function retrievePaymentSettings(ctx: AppContext, scope: Scope): Promise<PaymentSettings> {
  const row = await findSettings(ctx.db, scope);
  return {
    object: 'payment_settings',
    livemode: scope.livemode,
    provider_configs: row?.provider_configs ?? [],
    late_payment_policy: row?.late_payment_policy ?? 'accept_if_available',
    updated_at: iso(row?.updated_at),
  };
}

/**
 * A list may name only this environment's configurations, none `failing`, none twice, and a configuration
 * restricted to an organization only in that organization's list (`organization` `null`: the tenant's).
 */
async function checkList(ctx: AppContext, scope: Scope, ids: readonly string[], organization: string | null): Promise<void> {
  const rows = new Map((await findConfigsForSettings(ctx, scope, ids.filter((id) => isIdOf('payment_provider_config', id)))).map((r) => [r.id, r]));
  ids.forEach((id, i) => {
    const row: PaymentProviderConfigRow | undefined = rows.get(id);
    const refuse = (why: string) => {
      throw ApiError.of('validation_failed', { param: `provider_configs.${i}`, message: why, details: { [`provider_configs.${i}`]: [why] } });
    };
    if (!row) refuse(`No configuration '${id}' in this environment.`);
    if (ids.indexOf(id) !== i) refuse(`'${id}' is listed twice.`);
    if (row!.status === 'failing') refuse(`'${id}' is failing; fix its credentials first.`);
    if (row!.organization_id !== null && row!.organization_id !== organization) refuse(`'${id}' is restricted to organization ${row!.organization_id}.`);
  });
}

export async function updatePaymentSettings(ctx: AppContext, scope: Scope, input: { provider_configs?: string[]; late_payment_policy?: 'accept_if_available' | 'refund' }): Promise<PaymentSettings> {
  if (input.provider_configs) await checkList(ctx, scope, input.provider_configs, null);
  await upsertSettings(ctx.db, scope, input);
  return retrievePaymentSettings(ctx, scope);
}

async function organizationOf(ctx: AppContext, scope: Scope, id: string) {
  const org = isIdOf('organization', id) ? await scoped(ctx.db, scope).selectFrom('organizations').select('id').where('id', '=', id).executeTakeFirst() : undefined;
  if (!org) throw ApiError.notFound('organization', id);
  return org.id;
}

export async function retrieveOrganizationSettings(ctx: AppContext, scope: Scope, id: string): Promise<OrganizationPaymentSettings> {
  const organization = await organizationOf(ctx, scope, id);
  const row = await findOrganizationSettings(ctx.db, scope, organization);
  return { object: 'organization_payment_settings', livemode: scope.livemode, organization, provider_configs: row?.provider_configs ?? null, updated_at: iso(row?.updated_at) };
}

export async function updateOrganizationSettings(ctx: AppContext, scope: Scope, id: string, input: { provider_configs: string[] | null }): Promise<OrganizationPaymentSettings> {
  const organization = await organizationOf(ctx, scope, id);
  if (input.provider_configs) await checkList(ctx, scope, input.provider_configs, organization);
  await upsertOrganizationSettings(ctx.db, scope, organization, input.provider_configs);
  return retrieveOrganizationSettings(ctx, scope, organization);
}

/**
 * The configurations that serve an organization's checkouts, in order: the organization's list when it has
 * one, else the tenant's. `409 payments_not_configured` when the list is empty; `503 payments_unavailable`
 * when none in it is `active`. Test mode without a list uses the simulator (`[]`).
 */
export async function effectiveConfigs(ctx: AppContext, scope: Scope, organizationId: string): Promise<PaymentProviderConfigRow[]> {
  const own = await findOrganizationSettings(ctx.db, scope, organizationId);
  const ids = own?.provider_configs ?? (await findSettings(ctx.db, scope))?.provider_configs ?? [];
  if (ids.length === 0) {
    if (!scope.livemode) return [];
    throw ApiError.of('payments_not_configured', { message: 'No payment provider configuration serves this organization in live mode: add one and list it in the payment settings.' });
  }
  const rows = new Map((await findConfigsForSettings(ctx, scope, ids)).map((r) => [r.id, r]));
  const active = ids.map((id) => rows.get(id)).filter((r): r is PaymentProviderConfigRow => r !== undefined && r.status === 'active');
  if (active.length === 0) throw ApiError.of('payments_unavailable', { message: 'Every payment provider configuration serving this organization is failing.' });
  return active;
}

/**
 * The check a live-mode creation that must be paid makes before it holds anything: `409 payments_not_configured`
 * without a configuration, `503 payments_unavailable` when every one is failing; else checkout goes through them.
 */
export async function requireLivePayments(ctx: AppContext, scope: Scope, organizationId: string): Promise<void> {
  if (!scope.livemode) return;
  await effectiveConfigs(ctx, scope, organizationId);
}
