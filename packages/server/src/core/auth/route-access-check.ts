import type { Scope as ScopeName, TenantCredential } from '@svc/contract';
import { ApiError } from '../errors';
import type { TenantPrincipal } from '../principal';
import type { TenantRouteAccess } from './credential-resolver';

const credentialOf = (p: TenantPrincipal): TenantCredential => (p.kind === 'customer' ? 'publishable' : p.kind);

const described: Record<TenantCredential, string> = {
  secret: 'a secret key',
  restricted: 'a restricted key',
  publishable: 'a publishable key',
  user: 'a signed-in person\'s access token',
  'tenant-header': 'a tenant header alone',
};

/** The access check: the route takes this kind of caller, in this environment, for this product, with this scope or permission. */
export function checkRouteAccess(principal: TenantPrincipal, access: TenantRouteAccess): void {
  const kind = credentialOf(principal);
  if (!access.credentials.includes(kind)) {
    // A tenant header names a tenant but proves nothing: the caller still has to authenticate.
    if (kind === 'tenant-header') throw ApiError.of('api_key_missing');
    throw ApiError.of('insufficient_permissions', { message: `This route does not accept ${described[kind]}.` });
  }
  if (access.testMode === false && !principal.scope.livemode) throw ApiError.of('test_mode_unavailable');
  if (access.product && !principal.tenant.products.includes(access.product)) {
    throw ApiError.of('product_not_enabled', { message: `The ${access.product} product is not enabled for this tenant.` });
  }
  if (principal.kind === 'restricted') {
    const granted = principal.key.scopes ?? [];
    if (![access.scope, ...(access.altScopes ?? [])].some((s) => hasScope(granted, s))) {
      throw ApiError.of('missing_scope', {
        message: `This key lacks the scope ${access.scope}.`,
        details: { required_scope: access.scope },
      });
    }
  }
  if (principal.kind === 'user' && access.permission && !(principal.scope.permissions ?? []).includes(access.permission)) {
    throw ApiError.of('missing_permission', {
      message: `This member lacks the permission ${access.permission}.`,
      details: { required_permission: access.permission },
    });
  }
  if (access.liveMode === false && principal.scope.livemode) throw ApiError.of('live_mode_unavailable');
}

/** `x:write` covers `x:read`; `platform:*` covers both platform scopes. */
export function hasScope(granted: readonly string[], required: ScopeName): boolean {
  const [area] = required.split(':');
  return granted.some((g) => g === required || g === `${area}:write` || (area === 'platform' && g === 'platform:*'));
}
