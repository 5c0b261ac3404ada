import type { NextFunction, Request, Response } from 'express';
import type { RouteAccess } from '@svc/contract';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import type { Principal, TenantPrincipal } from '../principal';
import { withRequest } from '../scope';
import { applyRateLimit } from '../rate-limit';
import { recordUse } from './api-key-principal';
import { secretsEqual } from './api-key-secret';
import { readCredentials, type CredentialResolver, type RequestCredentials, type TenantRouteAccess } from './credential-resolver';
import { resolvePublishableKey, withCustomerToken } from './resolvers/publishable-key.resolver';
import { resolveSecretKey } from './resolvers/secret-key.resolver';
import { checkTenantHeader, resolveTenantHeader } from './resolvers/tenant-header.resolver';
import { resolveUserToken } from './resolvers/user-token.resolver';
import { checkRouteAccess } from './route-access-check';

export { hasScope } from './route-access-check';

export function routeAccess(req: Request): RouteAccess {
  const route = (req as Request & { tsRestRoute?: { metadata?: { access?: RouteAccess } } }).tsRestRoute;
  return route?.metadata?.access ?? { auth: 'public' };
}

/** The spec's order (Authentication › Which credentials…): key, publishable key, access token, tenant header. */
const RESOLVER_CHAIN: readonly CredentialResolver[] = [resolveSecretKey, resolvePublishableKey, resolveUserToken, resolveTenantHeader];

/**
 * Resolves the caller into one typed principal and checks it against the route's declared access
 * (credential kind, environment, product, scope or permission). Every route passes through here.
 */
export function authenticate(ctx: AppContext) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const principal = await resolvePrincipal(ctx, req, routeAccess(req));
      // The request acts in the principal's scope, so the events it causes name it.
      req.principal = 'scope' in principal ? { ...principal, scope: withRequest(principal.scope, req) } : principal;
      next();
    } catch (err) {
      // Failed attempts draw from the client IP's bucket, which caps guessing keys.
      try {
        await applyRateLimit(ctx, { kind: 'anonymous', ip: req.ip ?? 'unknown' }, res);
      } catch (limited) {
        return next(limited);
      }
      next(err);
    }
  };
}

async function resolvePrincipal(ctx: AppContext, req: Request, access: RouteAccess): Promise<Principal> {
  if (access.auth === 'public') return { kind: 'anonymous', ip: req.ip ?? 'unknown' };
  if (access.auth === 'operator') {
    const token = readCredentials(req).bearer;
    const expected = ctx.config.SVC_OPERATOR_TOKEN;
    if (!token || !expected || !secretsEqual(token, expected)) throw ApiError.of('operator_token_invalid');
    return { kind: 'operator' };
  }
  return resolveTenantCaller(ctx, readCredentials(req), access);
}

/** The chain for tenant routes: the first resolver that recognises a credential decides; then the access check. */
export async function resolveTenantCaller(ctx: AppContext, credentials: RequestCredentials, access: TenantRouteAccess): Promise<TenantPrincipal> {
  let principal: TenantPrincipal | undefined;
  for (const resolve of RESOLVER_CHAIN) {
    principal = await resolve(ctx, credentials, access);
    if (principal) break;
  }
  if (!principal) throw ApiError.of('api_key_missing');
  await checkTenantHeader(ctx, principal, credentials.tenantHeader, credentials.domain);
  checkRouteAccess(principal, access);
  // Only a key that got past every check counts as used.
  if ('key' in principal) recordUse(ctx, principal.key.id);
  if (principal.kind === 'publishable' && access.customerToken === 'required') {
    return withCustomerToken(ctx, principal, credentials.bearer, credentials.publishable !== undefined);
  }
  return principal;
}
