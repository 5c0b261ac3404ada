import type { ApiKeyType, Product, Scope as ScopeName, TenantCredential } from '@svc/contract';
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

/** A person signed in with an identity access token; the identity module's resolver builds it. */
export interface UserPrincipal {
  kind: 'user';
  tenant: ResolvedTenant;
  scope: Scope;
  userId: string;
  customerId: string | null;
  sessionId: string;
}

/** A caller that only named the tenant (`X-Tenant-Code` / `Svc-Tenant`), live mode; or came on a custom domain, its environment. */
export interface TenantHeaderPrincipal {
  kind: 'tenant-header';
  tenant: ResolvedTenant;
  scope: Scope;
  ip: string;
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
  | UserPrincipal
  | TenantHeaderPrincipal;

export type TenantPrincipal = Extract<Principal, { scope: Scope }>;
export type KeyPrincipal = Extract<Principal, { key: ResolvedKey }>;

export function isTenantPrincipal(p: Principal): p is TenantPrincipal {
  return 'scope' in p;
}

/** The principal kinds a route's declared credential admits (a publishable key with a customer token is a `customer`). */
export type PrincipalOf<C extends TenantCredential> = Extract<
  TenantPrincipal,
  { kind: C extends 'publishable' ? 'publishable' | 'customer' : C }
>;

/** The declared credentials of a ts-rest route, read from its `metadata.access` type. */
type CredentialsOf<R> = R extends { metadata: { access: { credentials: readonly (infer C extends TenantCredential)[] } } } ? C : TenantCredential;

/**
 * The caller of a tenant route, whatever credential it used. Given a ts-rest request, the type narrows to the
 * kinds the route declares (a route of `['secret', 'restricted']` gets a key principal with `key`).
 */
export function actorOf<R = unknown>(req: { principal?: Principal; tsRestRoute?: R }): PrincipalOf<CredentialsOf<R>> {
  const p = req.principal;
  if (!p || !isTenantPrincipal(p)) throw new Error('tenant route reached without a tenant principal');
  return p as PrincipalOf<CredentialsOf<R>>;
}
