import type { EffectiveBranding, UpdateBranding, UpdateOrganizationBranding } from '@svc/contract';
import { neutralBrand } from '../../../core/branding';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { BrandFields } from '../../../db/whitelabel.schema';
import { getOrganizationRow } from '../../identity';
import { notifyBrandChanged } from '../whitelabel-cache';
import { whitelabelCachePart } from '../whitelabel-parts';
import { applyPatch, BRAND_FIELDS, checkUrls, contrastWarnings, flattenPatch, nestFields } from './branding-fields';

const TENANT = '';
type Env = { tenantId: string; livemode: boolean };

async function fieldsOf(db: Executor, scope: Env, organizationId: string): Promise<{ fields: BrandFields; updatedAt: Date | null }> {
  const row = await db
    .selectFrom('brandings')
    .select(['fields', 'updated_at'])
    .where('tenant_id', '=', scope.tenantId)
    .where('livemode', '=', scope.livemode)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return { fields: row?.fields ?? {}, updatedAt: row ? new Date(row.updated_at) : null };
}

async function tenantName(db: Executor, tenantId: string): Promise<string> {
  const row = await db.selectFrom('tenants').select('name').where('id', '=', tenantId).executeTakeFirst();
  return row?.name ?? 'Checkout';
}

/** Field by field: the organization's, else the tenant's, else the neutral default named after the tenant. */
export async function loadEffectiveBrand(db: Executor, scope: Env, organizationId: string | null): Promise<EffectiveBranding> {
  const [tenant, organization, name] = await Promise.all([
    fieldsOf(db, scope, TENANT),
    organizationId ? fieldsOf(db, scope, organizationId) : Promise.resolve({ fields: {} }),
    tenantName(db, scope.tenantId),
  ]);
  const merged: BrandFields = { ...tenant.fields, ...organization.fields };
  const base = neutralBrand(merged.display_name ?? name, organizationId);
  const nested = nestFields(merged);
  const pick = <T extends Record<string, string | null>>(set: T, fallback: T) =>
    Object.fromEntries(Object.entries(set).map(([k, v]) => [k, v ?? fallback[k as keyof T]])) as { [K in keyof T]: NonNullable<T[K]> };
  return { ...base, ...nested, display_name: base.display_name, colors: pick(nested.colors, base.colors) };
}

export async function effectiveBrand(ctx: AppContext, scope: Env, organizationId: string | null): Promise<EffectiveBranding> {
  const key = `${scope.tenantId}:${scope.livemode}:${organizationId ?? ''}`;
  return whitelabelCachePart.of(ctx).brand(key, scope.tenantId, () => loadEffectiveBrand(ctx.db, scope, organizationId));
}

async function saveFields(ctx: AppContext, scope: Scope, organizationId: string, patch: Record<string, string | null>) {
  return ctx.db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('brandings')
      .select('fields')
      .where('tenant_id', '=', scope.tenantId)
      .where('livemode', '=', scope.livemode)
      .where('organization_id', '=', organizationId)
      .forUpdate()
      .executeTakeFirst();
    const fields = applyPatch(current?.fields ?? {}, patch);
    const row = await trx
      .insertInto('brandings')
      .values({ tenant_id: scope.tenantId, livemode: scope.livemode, organization_id: organizationId, fields: JSON.stringify(fields), updated_at: new Date() })
      .onConflict((oc) => oc.columns(['tenant_id', 'livemode', 'organization_id']).doUpdateSet({ fields: JSON.stringify(fields), updated_at: new Date() }))
      .returning('updated_at')
      .executeTakeFirstOrThrow();
    await notifyBrandChanged(trx, scope.tenantId);
    return { fields, updatedAt: new Date(row.updated_at) };
  });
}

const known = (patch: Record<string, string | null>) => Object.fromEntries(Object.entries(patch).filter(([k]) => (BRAND_FIELDS as readonly string[]).includes(k)));

export async function getTenantBranding(ctx: AppContext, scope: Scope) {
  const { fields, updatedAt } = await fieldsOf(ctx.db, scope, TENANT);
  return serializeTenant(scope, fields, updatedAt, await loadEffectiveBrand(ctx.db, scope, null), await tenantName(ctx.db, scope.tenantId));
}

export async function updateTenantBranding(ctx: AppContext, scope: Scope, body: UpdateBranding) {
  const patch = known(flattenPatch(body));
  checkUrls(patch, scope.livemode);
  const { fields, updatedAt } = await saveFields(ctx, scope, TENANT, patch);
  whitelabelCachePart.of(ctx).forgetBrands(scope.tenantId);
  return serializeTenant(scope, fields, updatedAt, await loadEffectiveBrand(ctx.db, scope, null), await tenantName(ctx.db, scope.tenantId));
}

export async function getOrganizationBranding(ctx: AppContext, scope: Scope, organizationId: string) {
  const org = await getOrganizationRow(ctx.db, scope, organizationId);
  const { fields, updatedAt } = await fieldsOf(ctx.db, scope, org.id);
  return serializeOrganization(scope, org.id, fields, updatedAt, await loadEffectiveBrand(ctx.db, scope, org.id));
}

export async function updateOrganizationBranding(ctx: AppContext, scope: Scope, organizationId: string, body: UpdateOrganizationBranding) {
  const org = await getOrganizationRow(ctx.db, scope, organizationId);
  const patch = known(flattenPatch(body));
  checkUrls(patch, scope.livemode);
  const { fields, updatedAt } = await saveFields(ctx, scope, org.id, patch);
  whitelabelCachePart.of(ctx).forgetBrands(scope.tenantId);
  return serializeOrganization(scope, org.id, fields, updatedAt, await loadEffectiveBrand(ctx.db, scope, org.id));
}

function serializeTenant(scope: Scope, fields: BrandFields, updatedAt: Date | null, effective: EffectiveBranding, name: string) {
  return {
    object: 'branding' as const,
    livemode: scope.livemode,
    display_name: fields.display_name ?? name,
    ...nestFields(fields),
    updated_at: updatedAt?.toISOString() ?? null,
    warnings: contrastWarnings(effective),
  };
}

function serializeOrganization(scope: Scope, organizationId: string, fields: BrandFields, updatedAt: Date | null, effective: EffectiveBranding) {
  return {
    object: 'organization_branding' as const,
    livemode: scope.livemode,
    organization: organizationId,
    display_name: fields.display_name ?? null,
    ...nestFields(fields),
    updated_at: updatedAt?.toISOString() ?? null,
    warnings: contrastWarnings(effective),
  };
}
