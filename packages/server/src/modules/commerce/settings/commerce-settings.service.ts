import type { CommerceSettings, UpdateCommerceSettingsInput } from '@svc/contract';
import type { CommerceSettingsRow } from '../../../db/commerce.schema';
import type { Executor } from '../../../db/database';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import { getOrganizationRow } from '../../identity';
import { nowOf } from '../commerce-access';
import * as repo from './commerce-settings.repository';

/** What an organization uses until it changes something (products-api § 3.3). */
const DEFAULTS = { hold_minutes: 15, shipping_fee: 0, pickup_enabled: false, pickup_instructions: null };

export interface EffectiveCommerceSettings {
  hold_minutes: number;
  shipping_fee: number;
  pickup_enabled: boolean;
  pickup_instructions: string | null;
  updated_at: Date | null;
}

const effective = (row: CommerceSettingsRow | undefined): EffectiveCommerceSettings => (row ? { ...row } : { ...DEFAULTS, updated_at: null });

const serialize = (organizationId: string, s: EffectiveCommerceSettings): CommerceSettings => ({
  object: 'commerce_settings',
  organization: organizationId,
  hold_minutes: s.hold_minutes,
  shipping_fee: s.shipping_fee,
  pickup_enabled: s.pickup_enabled,
  pickup_instructions: s.pickup_instructions,
  updated_at: s.updated_at ? new Date(s.updated_at).toISOString() : null,
});

/** The organization's settings, defaults included: what order creation reads. */
export async function commerceSettingsOf(db: Executor, scope: Scope, organizationId: string): Promise<EffectiveCommerceSettings> {
  return effective(await repo.findSettings(db, scope, organizationId));
}

export async function getCommerceSettings(ctx: AppContext, scope: Scope, organizationId: string) {
  const org = await getOrganizationRow(ctx.db, scope, organizationId);
  return serialize(org.id, await commerceSettingsOf(ctx.db, scope, org.id));
}

export async function updateCommerceSettings(ctx: AppContext, scope: Scope, organizationId: string, input: UpdateCommerceSettingsInput) {
  const org = await getOrganizationRow(ctx.db, scope, organizationId);
  const changed = (Object.keys(input) as (keyof UpdateCommerceSettingsInput)[]).filter((k) => input[k] !== undefined);
  const row = await repo.upsertSettings(
    ctx.db,
    { tenant_id: scope.tenantId, livemode: scope.livemode, organization_id: org.id, ...DEFAULTS, ...input, updated_at: nowOf(ctx) },
    changed,
  );
  return serialize(org.id, effective(row));
}
