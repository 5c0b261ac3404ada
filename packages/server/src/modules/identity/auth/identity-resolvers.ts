import type { Request } from 'express';
import type { RouteAccess } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Principal } from '../../../core/principal';
import { resolveTenant, tenantHeaderOf } from '../tenancy/resolve-tenant';
import { looksLikeAccessToken, resolveAccessToken } from './access-tokens';
import { requirePermission } from './member-permissions';

type TenantRoute = Extract<RouteAccess, { auth: 'tenant' }>;
type IdentityPrincipal = Extract<Principal, { kind: 'user' | 'tenant-header' }>;

async function tenantIdOfHeader(ctx: AppContext, header: string): Promise<string | null> {
  try {
    return (await resolveTenant(ctx, header)).id;
  } catch {
    return null;
  }
}

/**
 * Rules 3 and 4 of request-to-tenant resolution, after API keys (1) and publishable keys (2): an identity
 * access token, whose `tid` decides (a header naming another tenant: `401 tenant_mismatch`); else the tenant
 * header alone, a code or `ten_` id, in live mode (`404 tenant_not_found` when unknown). `undefined`: neither.
 */
export async function resolveIdentityPrincipal(ctx: AppContext, req: Request, bearer: string | undefined): Promise<IdentityPrincipal | undefined> {
  const header = tenantHeaderOf(req);
  if (bearer && looksLikeAccessToken(bearer)) {
    const user = await resolveAccessToken(ctx, bearer);
    if (header !== undefined && (await tenantIdOfHeader(ctx, header)) !== user.tenant.id) {
      throw ApiError.of('tenant_mismatch', {
        status: 401,
        type: 'authentication_error',
        message: 'The tenant header names another tenant than the access token.',
      });
    }
    return user;
  }
  if (bearer === undefined && header !== undefined) {
    const tenant = await resolveTenant(ctx, header);
    return {
      kind: 'tenant-header',
      tenant: { id: tenant.id, products: tenant.products, rateLimits: tenant.rateLimits },
      scope: { tenantId: tenant.id, livemode: true },
      ip: req.ip ?? 'unknown',
    };
  }
  return undefined;
}

/** A tenant header beside a key must name the key's tenant: else `400 tenant_mismatch`. */
export async function checkKeyTenantHeader(ctx: AppContext, req: Request, tenantId: string): Promise<void> {
  const header = tenantHeaderOf(req);
  if (header !== undefined && (await tenantIdOfHeader(ctx, header)) !== tenantId) {
    throw ApiError.of('tenant_mismatch', { message: 'The tenant header names another tenant than the API key.' });
  }
}

/** The route's declared access for a signed-in person or a tenant-header caller, with the member permission. */
export async function checkIdentityAccess(ctx: AppContext, principal: IdentityPrincipal, access: TenantRoute): Promise<void> {
  if (!access.credentials.includes(principal.kind)) {
    throw ApiError.of('insufficient_permissions', {
      message: principal.kind === 'user' ? 'This route does not accept an access token.' : 'This route needs a credential, not only the tenant header.',
    });
  }
  if (access.testMode === false && !principal.scope.livemode) throw ApiError.of('test_mode_unavailable');
  if (access.product && !principal.tenant.products.includes(access.product)) {
    throw ApiError.of('product_not_enabled', { message: `The ${access.product} product is not enabled for this tenant.` });
  }
  if (principal.kind === 'user' && access.permission) {
    await requirePermission(ctx, principal.tenant.id, principal.userId, access.permission);
  }
}
