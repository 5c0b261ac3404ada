import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import type { Product, RouteAccess, Scope as ScopeName, TenantCredential } from '@svc/contract';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import type { KeyPrincipal, Principal, ResolvedKey } from '../principal';
import { hashSecret, parseApiKey, secretsEqual } from './api-key-secret';
import { customerPrincipal } from './customer-token';
import { resolveApiKey } from './resolve-api-key';
import { applyRateLimit } from '../rate-limit';
// Identity's resolvers (access tokens, the tenant header, member permissions) until the resolver chain takes them.
import { checkIdentityAccess, checkKeyTenantHeader, resolveIdentityPrincipal } from '../../modules/identity/auth/identity-resolvers';

export function routeAccess(req: Request): RouteAccess {
  const route = (req as Request & { tsRestRoute?: { metadata?: { access?: RouteAccess } } }).tsRestRoute;
  return route?.metadata?.access ?? { auth: 'public' };
}

function bearer(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : '';
}

/**
 * Resolves the caller into one typed principal and checks it against the route's declared access
 * (credential kind, environment, product, scope). Every route passes through here.
 */
export function authenticate(ctx: AppContext) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      req.principal = await resolvePrincipal(ctx, req, routeAccess(req));
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
    const token = bearer(req);
    const expected = ctx.config.SVC_OPERATOR_TOKEN;
    if (!token || !expected || !secretsEqual(token, expected)) throw ApiError.of('operator_token_invalid');
    return { kind: 'operator' };
  }

  const publishable = req.headers['svc-publishable-key'];
  // Identity: without a publishable key, an access token (rule 3) or the tenant header alone (rule 4).
  if (!(typeof publishable === 'string' && publishable)) {
    const identity = await resolveIdentityPrincipal(ctx, req, bearer(req));
    if (identity) {
      await checkIdentityAccess(ctx, identity, access);
      return identity;
    }
  }
  const secret = typeof publishable === 'string' && publishable ? publishable : bearer(req);
  if (!secret) throw ApiError.of('api_key_missing');
  const principal = await principalForKey(ctx, req, secret);
  await checkKeyTenantHeader(ctx, req, principal.tenant.id);
  checkRouteAccess(principal, access.credentials, access.scope, access.product, access.testMode, access.altScopes);
  if (access.liveMode === false && principal.scope.livemode) throw ApiError.of('live_mode_unavailable');
  // Only a key that got past every check counts as used.
  recordUse(ctx, principal.key.id);
  // A viewer: the publishable key names the tenant, the customer token (only beside the header) the customer.
  if (principal.kind === 'publishable' && access.customerToken === 'required') {
    return customerPrincipal(ctx, principal, secret === publishable ? bearer(req) : undefined);
  }
  return principal;
}

async function principalForKey(ctx: AppContext, req: Request, secret: string): Promise<KeyPrincipal> {
  const parsed = parseApiKey(secret);
  if (!parsed) throw ApiError.of('api_key_invalid', { message: 'The API key is malformed.' });
  const hash = hashSecret(secret);
  let resolved = ctx.credentials.get(hash);
  if (!resolved) {
    // A revoke that commits while this read runs must not be undone by caching what the read saw.
    const generation = ctx.credentials.generation;
    resolved = await resolveApiKey(ctx.db, hash);
    if (!resolved) throw ApiError.of('api_key_invalid', { message: 'The API key is not known.' });
    ctx.credentials.set(hash, resolved, generation);
  }
  const { key, tenant } = resolved;
  if (key.revokedAt) throw ApiError.of('api_key_revoked');
  if (key.expiresAt && key.expiresAt.getTime() <= Date.now()) throw ApiError.of('api_key_expired');
  const ip = req.ip ?? '';
  if (key.ipAllowlist && !ipAllowed(key, ip)) {
    throw ApiError.of('ip_not_allowed', { message: `The key does not allow requests from ${ip}.` });
  }
  const scope = { tenantId: tenant.id, livemode: key.livemode };
  if (key.type === 'publishable') return { kind: 'publishable', key, tenant, scope, clientId: ip };
  return { kind: key.type, key, tenant, scope };
}

function checkRouteAccess(
  principal: KeyPrincipal,
  credentials: readonly TenantCredential[],
  scope: ScopeName,
  product: Product | undefined,
  testMode = true,
  altScopes: readonly ScopeName[] = [],
): void {
  const kind = principal.kind === 'customer' ? 'publishable' : principal.kind;
  if (!credentials.includes(kind)) {
    throw ApiError.of('insufficient_permissions', { message: `This route does not accept a ${kind} key.` });
  }
  if (!testMode && !principal.scope.livemode) throw ApiError.of('test_mode_unavailable');
  if (product && !principal.tenant.products.includes(product)) {
    throw ApiError.of('product_not_enabled', { message: `The ${product} product is not enabled for this tenant.` });
  }
  const granted = principal.key.scopes ?? [];
  if (principal.kind === 'restricted' && ![scope, ...altScopes].some((s) => hasScope(granted, s))) {
    throw ApiError.of('missing_scope', {
      message: `This key lacks the scope ${scope}.`,
      details: { required_scope: scope },
    });
  }
}

/** `x:write` covers `x:read`; `platform:*` covers both platform scopes. */
export function hasScope(granted: readonly string[], required: ScopeName): boolean {
  const [area, level] = required.split(':');
  return granted.some((g) => g === required || g === `${area}:write` || (area === 'platform' && g === 'platform:*'));
}

const blockLists = new WeakMap<ResolvedKey, BlockList>();

function ipAllowed(key: ResolvedKey, ip: string): boolean {
  let list = blockLists.get(key);
  if (!list) {
    list = new BlockList();
    for (const entry of key.ipAllowlist ?? []) {
      const [address, bits] = entry.split('/');
      const family = isIPv6(address!) ? 'ipv6' : 'ipv4';
      if (bits) list.addSubnet(address!, Number(bits), family);
      else list.addAddress(address!, family);
    }
    blockLists.set(key, list);
  }
  const plain = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  return list.check(plain, isIPv6(plain) ? 'ipv6' : 'ipv4');
}

const USE_WRITE_INTERVAL_MS = 60_000;
const MAX_TRACKED_KEYS = 100_000;
const lastUseWritten = new Map<string, number>();

/** `last_used_at` is written at most once a minute per key and process, off the request's path. */
function recordUse(ctx: AppContext, keyId: string): void {
  const now = Date.now();
  if ((lastUseWritten.get(keyId) ?? 0) > now - USE_WRITE_INTERVAL_MS) return;
  if (lastUseWritten.size >= MAX_TRACKED_KEYS) lastUseWritten.clear();
  lastUseWritten.set(keyId, now);
  ctx.db
    .updateTable('api_keys')
    .set({ last_used_at: new Date(now) })
    .where('id', '=', keyId)
    .execute()
    .catch((err) => ctx.log.warn({ err: err.message }, 'could not record key use'));
}
