import type { RouteAccess } from '@svc/contract';
import type { MockStore } from './store';

const KEY_PATTERN = /^(sk|rk|pk)_(live|test)_[0-9A-Za-z]{8,}$/;
const KIND = { sk: 'secret', rk: 'restricted', pk: 'publishable' } as const;

const bearer = (request: Request) => {
  const header = request.headers.get('authorization');
  if (!header) return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? '';
};

export interface AuthFailure {
  code: 'api_key_missing' | 'api_key_invalid' | 'api_key_revoked' | 'operator_token_invalid' | 'insufficient_permissions' | 'live_mode_unavailable' | 'missing_scope' | 'invalid_customer_token' | 'invalid_access_token';
  message?: string;
  details?: { reason: string };
}

const JWT_PATTERN = /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** The claims of a JWT, unverified: the mock has no signing keys, so it checks shape and expiry only. */
function claimsOf(token: string): { exp?: unknown } | undefined {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' ? claims : undefined;
  } catch {
    return undefined;
  }
}

/** A signed-in person's access token (`new Svc({ accessToken })`): on routes that take one, a JWT not yet expired. */
function checkAccessToken(token: string, access: Extract<RouteAccess, { auth: 'tenant' }>): AuthFailure | undefined {
  const takesUser = (access.credentials as readonly string[]).includes('user');
  const claims = claimsOf(token);
  if (!claims) return takesUser ? { code: 'invalid_access_token', details: { reason: 'malformed' } } : { code: 'api_key_invalid', message: 'The API key is malformed.' };
  if (typeof claims.exp === 'number' && claims.exp * 1000 <= Date.now()) return { code: 'invalid_access_token', details: { reason: 'token_expired' } };
  if (!takesUser) return { code: 'insufficient_permissions', message: 'This route does not accept an access token.' };
  return undefined;
}

const covers = (granted: readonly string[], scope: string) => {
  const [area] = scope.split(':');
  return granted.includes(scope) || (scope.endsWith(':read') && granted.includes(`${area}:write`)) || (area === 'platform' && granted.includes('platform:*'));
};

/**
 * The server's credential checks, in order: the operator token on operator routes; on tenant routes a
 * well-formed key (`Svc-Publishable-Key` or `Authorization: Bearer`), of a kind the route takes, not revoked
 * and holding the route's scope when the mock issued it; a customer token beside a publishable key where the
 * route asks for one; an access token (a JWT, unverified) on routes that take a signed-in person. Keys the
 * mock did not issue are taken when well-formed.
 */
export function checkCredentials(request: Request, access: RouteAccess | undefined, store: MockStore, operatorToken: string | undefined): AuthFailure | undefined {
  if (!access || access.auth === 'public') return undefined;
  if (access.auth === 'operator') {
    const token = bearer(request);
    return !token || (operatorToken !== undefined && token !== operatorToken) ? { code: 'operator_token_invalid' } : undefined;
  }
  const publishable = request.headers.get('svc-publishable-key');
  const token = bearer(request);
  if (!publishable && token && JWT_PATTERN.test(token)) return checkAccessToken(token, access);
  const key = publishable || token;
  if (!key) return { code: 'api_key_missing' };
  const m = KEY_PATTERN.exec(key);
  if (!m) return { code: 'api_key_invalid', message: 'The API key is malformed.' };
  const kind = KIND[m[1] as keyof typeof KIND];
  const issued = [...store.secrets.entries()].find(([, secret]) => secret === key);
  const record = issued ? store.get(issued[0]) : undefined;
  if (record?.status === 'revoked') return { code: 'api_key_revoked' };
  if (!(access.credentials as readonly string[]).includes(kind)) return { code: 'insufficient_permissions', message: `This route does not accept a ${kind} key.` };
  if (access.liveMode === false && m[2] === 'live') return { code: 'live_mode_unavailable' };
  if (kind === 'restricted' && record) {
    const granted = (record.scopes as string[] | null) ?? [];
    if (![access.scope, ...(access.altScopes ?? [])].some((s) => covers(granted, s))) return { code: 'missing_scope', message: `This key lacks the scope ${access.scope}.` };
  }
  if (kind === 'publishable' && access.customerToken === 'required' && !(publishable && bearer(request))) return { code: 'invalid_customer_token' };
  return undefined;
}
