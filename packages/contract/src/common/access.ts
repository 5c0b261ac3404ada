/** The spec's products; a tenant switches each on or off. */
export const PRODUCTS = [
  'events',
  'fanbases',
  'commerce',
  'streams',
  'promoters',
  'messaging',
  'payments',
  'identity',
  'insights',
] as const;
export type Product = (typeof PRODUCTS)[number];

/** Scope areas: the products, plus `access` and `customers`, which the spec scopes on their own, and `platform`. */
export const SCOPE_AREAS = [...PRODUCTS, 'access', 'customers', 'platform'] as const;
export type ScopeArea = (typeof SCOPE_AREAS)[number];
export type Scope = `${ScopeArea}:${'read' | 'write'}` | 'platform:*';

/**
 * - `secret`, `restricted`, `publishable`: API keys (a publishable key with a customer token is still `publishable`).
 * - `user`: a person signed in with an identity access token (`Authorization: Bearer <ACCESS_TOKEN>`).
 * - `tenant-header`: a caller that only names the tenant (`X-Tenant-Code` or `Svc-Tenant`), live mode.
 */
export type TenantCredential = 'secret' | 'restricted' | 'publishable' | 'user' | 'tenant-header';

/**
 * Who may call a route, read by the server's one authentication middleware from the route's `metadata`.
 * - `public`: no credential; limited per client IP.
 * - `operator`: the self-hosted operator's token.
 * - `tenant`: a tenant's caller; `credentials` lists the kinds taken, `scope` what a restricted key needs,
 *   `permission` what a signed-in member needs.
 */
export type RouteAccess =
  | { auth: 'public' }
  | { auth: 'operator'; idempotency?: 'required' }
  | {
      auth: 'tenant';
      credentials: readonly TenantCredential[];
      scope: Scope;
      /** The member permission a `user` principal must hold (for example `events:write`). */
      permission?: string;
      /** Other scopes, any one of which also admits a restricted key (session heartbeat and end: `streams:write`). */
      altScopes?: readonly Scope[];
      /** With a publishable key the request must carry a customer token (`Authorization: Bearer`); its `sub` is the customer. */
      customerToken?: 'required';
      /** The product that must be on for the tenant. */
      product?: Product;
      /** `false` where the spec's family table says test mode is not yet offered. */
      testMode?: boolean;
      /** `false` on test helpers: live-mode keys are refused with `403 live_mode_unavailable`. */
      liveMode?: boolean;
      idempotency?: 'required';
    };

export const access = <const A extends RouteAccess>(a: A) => ({ access: a });

/**
 * Route metadata beside `access` for a route called for every viewer, visitor or ticket (the heartbeat, the access
 * check, the public event page, a door scan): the server writes its per-request log lines at `debug` and counts it
 * into a periodic `requests summary` at `info`.
 */
export const frequent = { requestLog: 'summary' } as const;

/**
 * Route metadata for a request other than a read that a repeat cannot do twice: a heartbeat (it only keeps a
 * session alive and answers its current state), ending a session (an ended session is answered as it is), an
 * access check (a read sent as POST). SDKs send it without an `Idempotency-Key`, which would cost a stored answer.
 */
export const repeatable = { repeatable: true } as const;
