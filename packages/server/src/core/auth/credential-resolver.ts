import type { Request } from 'express';
import type { RouteAccess } from '@svc/contract';
import type { AppContext } from '../context';
import type { ServedDomain } from '../branding';
import type { TenantPrincipal, UserPrincipal } from '../principal';

/** The credentials a request carries, read once from its headers. */
export interface RequestCredentials {
  /** `Authorization: Bearer …`; `''` when the header is there but not a bearer. */
  bearer: string | undefined;
  /** `Svc-Publishable-Key`. */
  publishable: string | undefined;
  /** `X-Tenant-Code`, else `Svc-Tenant`: a `ten_` id or a tenant's code. */
  tenantHeader: string | undefined;
  /** The active custom domain the request came on: it counts as a tenant header naming its tenant. */
  domain?: ServedDomain;
  /** `Svc-Environment: test|live`: the environment a tenant's staff member acts in with their access token. */
  environment: string | undefined;
  ip: string;
}

export type TenantRouteAccess = Extract<RouteAccess, { auth: 'tenant' }>;

/**
 * One step of the resolver chain. It returns the principal when the request carries its kind of credential,
 * throws the credential's refusal when that credential is bad, and returns `undefined` to pass the request on.
 */
export type CredentialResolver = (
  ctx: AppContext,
  credentials: RequestCredentials,
  access: TenantRouteAccess,
) => Promise<TenantPrincipal | undefined>;

/**
 * The slot for identity access tokens: core defines it, the identity module fills it (`AuthSlots.userTokens`).
 * `verify` checks the token (signature, expiry, tenant) and returns the signed-in person, or throws
 * `401 invalid_access_token`. `tenantHeader` is the request's tenant header, for tokens valid in several tenants;
 * `environment` the `Svc-Environment` header, which a tenant's staff member may send to act in the other environment.
 */
export interface UserTokenResolver {
  verify(token: string, context: { tenantHeader: string | undefined; environment?: string; ip: string }): Promise<UserPrincipal>;
}

/** The slot for tenant codes (`X-Tenant-Code: acme`): the identity module fills it (`AuthSlots.tenantCodes`). */
export interface TenantCodeLookup {
  /** The id of the tenant with this code, or `undefined` when no tenant has it. */
  tenantIdForCode(code: string): Promise<string | undefined>;
}

/** What modules plug into authentication; empty until a module that offers it is installed. */
export interface AuthSlots {
  userTokens?: UserTokenResolver;
  tenantCodes?: TenantCodeLookup;
}

function bearerOf(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : '';
}

const firstHeader = (req: Request, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === 'string' && value ? value : undefined;
};

export function readCredentials(req: Request): RequestCredentials {
  return {
    bearer: bearerOf(req),
    publishable: firstHeader(req, 'svc-publishable-key'),
    tenantHeader: firstHeader(req, 'x-tenant-code') ?? firstHeader(req, 'svc-tenant'),
    domain: req.domain,
    environment: firstHeader(req, 'svc-environment'),
    ip: req.ip ?? 'unknown',
  };
}

/** A compact JWS (`eyJ…` header, three base64url parts): an access or customer token, never an API key. */
export const looksLikeJwt = (token: string): boolean => /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
