import type { AppContext } from '../../context';
import { ApiError } from '../../errors';
import { isIdOf } from '../../ids';
import type { ServedDomain } from '../../branding';
import type { TenantPrincipal } from '../../principal';
import type { CredentialResolver } from '../credential-resolver';
import { resolveTenant } from '../resolve-tenant';

/** The tenant id a tenant header names: a `ten_` id as sent, a code through `ctx.auth.tenantCodes`; `undefined` when unknown. */
export async function tenantIdOfHeader(ctx: AppContext, value: string): Promise<string | undefined> {
  if (isIdOf('tenant', value)) return value;
  return ctx.auth.tenantCodes?.tenantIdForCode(value);
}

/**
 * Last: only a tenant header (`X-Tenant-Code` / `Svc-Tenant`), on routes that take `tenant-header`. Live
 * mode; an unknown tenant is `404 tenant_not_found`. Elsewhere a header alone is no credential.
 */
export const resolveTenantHeader: CredentialResolver = async (ctx, { tenantHeader, domain, ip }, access) => {
  if ((tenantHeader === undefined && !domain) || !access.credentials.includes('tenant-header')) return undefined;
  // A custom domain names its tenant and environment (a test-mode domain serves test mode).
  const id = domain ? domain.tenantId : await tenantIdOfHeader(ctx, tenantHeader!);
  const tenant = id === undefined ? undefined : await resolveTenant(ctx.db, id);
  if (!tenant) throw ApiError.of('tenant_not_found', { param: 'X-Tenant-Code' });
  return { kind: 'tenant-header', tenant, scope: { tenantId: tenant.id, livemode: domain ? domain.livemode : true }, ip };
};

/** A tenant header beside a key or token must name the same tenant: `400 tenant_mismatch` otherwise. */
export async function checkTenantHeader(ctx: AppContext, principal: TenantPrincipal, tenantHeader: string | undefined, domain?: ServedDomain): Promise<void> {
  // On a custom domain, every credential must be of the domain's tenant; so must a tenant header.
  if (domain && (principal.tenant.id !== domain.tenantId || (tenantHeader !== undefined && (await tenantIdOfHeader(ctx, tenantHeader)) !== domain.tenantId))) {
    throw ApiError.of('tenant_mismatch', { message: 'This host belongs to another tenant than the credential.' });
  }
  if (tenantHeader === undefined || principal.kind === 'tenant-header') return;
  const id = await tenantIdOfHeader(ctx, tenantHeader);
  if (id !== principal.tenant.id) {
    throw ApiError.of('tenant_mismatch', {
      param: 'X-Tenant-Code',
      message: 'The tenant header names another tenant than the credential.',
    });
  }
}
