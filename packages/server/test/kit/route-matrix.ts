import { contract, SCOPE_AREAS, type RouteAccess } from '@svc/contract';
import type { AppRoute } from '@ts-rest/core';
import { routesOf } from '../../src/core/unknown-route';
import { bearer, type TestServer } from '../harness';

export type TenantAccess = Extract<RouteAccess, { auth: 'tenant' }>;
export interface TenantRoute {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  params: string[];
  access: TenantAccess;
  name: string;
}

/** Every route of the contract that a tenant's caller uses, with its declared access. */
export const tenantRoutes: TenantRoute[] = routesOf(contract)
  .map((r: AppRoute) => ({ route: r, access: (r.metadata as { access?: RouteAccess } | undefined)?.access }))
  .filter((r): r is { route: AppRoute; access: TenantAccess } => r.access?.auth === 'tenant')
  .map(({ route, access }) => ({
    method: route.method.toLowerCase() as TenantRoute['method'],
    path: route.path,
    params: [...route.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!),
    access,
    name: `${route.method} ${route.path}`,
  }));

/** The path with every parameter set (a well-formed id nobody issued unless given). */
export const fill = (route: TenantRoute, values: Record<string, string> = {}) =>
  route.path.replace(/:([a-z_]+)/g, (_m, p: string) => values[p] ?? `unknown_${p}`);

export function call(t: TestServer, route: TenantRoute, headers: Record<string, string>, values?: Record<string, string>) {
  const req = t.http()[route.method](fill(route, values)).set(headers);
  return route.method === 'post' || route.method === 'patch' ? req.send({}) : req;
}

/** A restricted key of the tenant's test environment with `scopes` (every scope by default). */
export async function restrictedKey(t: TestServer, secret: string, scopes: string[] = SCOPE_AREAS.map((a) => `${a}:write`)) {
  const res = await t.http().post('/v1/keys').set(bearer(secret)).send({ type: 'restricted', scopes });
  if (res.status !== 201) throw new Error(`could not create a restricted key: ${JSON.stringify(res.body)}`);
  return res.body.data.secret as string;
}

/** A JWT of the shape an identity access token has (no server accepts it yet). */
export const ACCESS_TOKEN_SHAPED = 'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c3JfMSJ9.c2lnbmF0dXJl';
