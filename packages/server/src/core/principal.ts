import type { ApiKeyType, Product, Scope as ScopeName } from '@svc/contract';
import type { Scope } from './scope';

export interface ResolvedTenant {
  id: string;
  products: readonly Product[];
  rateLimits: { secret: number; publishable: number };
}

export interface ResolvedKey {
  id: string;
  type: ApiKeyType;
  livemode: boolean;
  scopes: readonly ScopeName[] | null;
  ipAllowlist: readonly string[] | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

interface TenantPrincipalBase {
  tenant: ResolvedTenant;
  key: ResolvedKey;
  /** The tenant and environment the request acts in; repository functions take it. */
  scope: Scope;
}

/** Who is calling, resolved once per request by the authentication middleware. */
export type Principal =
  | { kind: 'anonymous'; ip: string }
  | { kind: 'operator' }
  | ({ kind: 'secret' } & TenantPrincipalBase)
  | ({ kind: 'restricted' } & TenantPrincipalBase)
  | ({ kind: 'publishable' } & TenantPrincipalBase & { clientId: string })
  /** A viewer: publishable key plus a customer token (`sub`, optional `ctry`). */
  | ({ kind: 'customer' } & TenantPrincipalBase & { customer: string; country: string | null; tokenKeyId: string })
  /** A person signed in through the identity service. */
  | { kind: 'user'; tenant: ResolvedTenant; scope: Scope; userId: string; customerId: string | null; sessionId: string }
  /** A caller that only named the tenant with `X-Tenant-Code` / `Svc-Tenant` (live mode). */
  | { kind: 'tenant-header'; tenant: ResolvedTenant; scope: Scope; ip: string };

export type TenantPrincipal = Extract<Principal, { scope: Scope }>;
export type KeyPrincipal = Extract<Principal, { key: ResolvedKey }>;

export function isTenantPrincipal(p: Principal): p is TenantPrincipal {
  return 'scope' in p;
}

/** The key principal the authentication middleware put on a route that takes only API keys. */
export function keyPrincipal(req: { principal?: Principal }): KeyPrincipal {
  const p = req.principal;
  if (!p || !('key' in p)) throw new Error('route reached without an API key principal');
  return p;
}
