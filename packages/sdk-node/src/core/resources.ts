import { Page, PagePromise, type ListBody } from './pagination';
import type { RawRequest, RequestOptions, Transport } from './request';
import type { ContractRoute, Resources } from './types';

export type ClientKind = 'tenant' | 'operator';

export const isRoute = (value: unknown): value is ContractRoute =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'responses' in value;

/** The client a route belongs to, from its `metadata.access`: a tenant's server key, or the operator's token. */
export function kindOf(route: ContractRoute): ClientKind | undefined {
  const access = (route.metadata as { access?: { auth?: string; credentials?: readonly string[] } } | undefined)?.access;
  if (access?.auth === 'operator') return 'operator';
  if (access?.auth === 'tenant' && access.credentials?.some((c) => c === 'secret' || c === 'restricted')) return 'tenant';
  return undefined;
}

/** `/v1/x/:id/y/:target_id` → `['id', 'target_id']`. */
export const pathNames = (path: string) => [...path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);

/** The contract marks requests that a repeat cannot do twice (heartbeats, ends, checks): they go without a generated key. */
const isRepeatable = (route: ContractRoute) => (route.metadata as { repeatable?: boolean } | undefined)?.repeatable === true;

/** Path parameters go into the path; the rest is the query of a read or the body of a write. */
function toRequest(route: ContractRoute, args: Record<string, unknown> = {}): RawRequest {
  const rest = { ...args };
  const path = route.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = rest[name];
    if (value === undefined || value === null || value === '') throw new TypeError(`Svc: \`${name}\` is required for ${route.method} ${route.path}`);
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  const hasPayload = Object.keys(rest).length > 0;
  const repeatable = isRepeatable(route) ? { repeatable: true } : {};
  if (route.method === 'GET' || route.method === 'DELETE') return { method: route.method, path, query: hasPayload ? rest : undefined, ...repeatable };
  return { method: route.method, path, body: hasPayload ? rest : route.body ? {} : undefined, ...repeatable };
}

/** `(id, …ids, args?, options?)` or `(args?, options?)`: leading strings are the path's parameters in order. */
function readArguments(route: ContractRoute, names: string[], argv: unknown[]): [Record<string, unknown>, RequestOptions] {
  let n = 0;
  while (n < names.length && typeof argv[n] === 'string') n++;
  if (n > 0 && n < names.length) {
    throw new TypeError(`Svc: ${route.method} ${route.path} takes ${names.map((p) => `\`${p}\``).join(', ')} before its arguments`);
  }
  const ids = Object.fromEntries(names.slice(0, n).map((name, i) => [name, argv[i]]));
  const args = (argv[n] ?? {}) as Record<string, unknown>;
  return [{ ...args, ...ids }, (argv[n + 1] ?? {}) as RequestOptions];
}

/** Lists answer `{data: [...], meta: {pagination}}`; objects `{data: …}`. */
const isListRoute = (route: ContractRoute) => {
  const ok = (route.responses[200] ?? route.responses[201]) as { shape?: Record<string, unknown> } | undefined;
  const data = ok?.shape?.data as { def?: { type?: string } } | undefined;
  return !!ok?.shape?.meta && data?.def?.type === 'array';
};

function methodFor(transport: Transport, route: ContractRoute) {
  const names = pathNames(route.path);
  if (isListRoute(route)) {
    return (...argv: unknown[]) => {
      const [args, options] = readArguments(route, names, argv);
      const request = toRequest(route, args);
      return new PagePromise(async () => new Page(transport, request, options, await transport.request<ListBody<unknown>>(request, options)));
    };
  }
  return async (...argv: unknown[]) => {
    const [args, options] = readArguments(route, names, argv);
    const body = await transport.request<{ data?: unknown }>(toRequest(route, args), options);
    return body && typeof body === 'object' && 'data' in body ? body.data : body;
  };
}

/**
 * Builds the method tree from the contract itself, so every route the contract declares for this kind of
 * client is a method of it; groups without such routes are left out.
 */
export function buildResources<T>(transport: Transport, router: object, kind: ClientKind): Resources<T> {
  const entries: Array<[string, unknown]> = [];
  for (const [name, value] of Object.entries(router)) {
    if (isRoute(value)) {
      if (kindOf(value) === kind) entries.push([name, methodFor(transport, value)]);
    } else {
      const group = buildResources(transport, value as object, kind);
      if (Object.keys(group).length > 0) entries.push([name, group]);
    }
  }
  return Object.fromEntries(entries) as Resources<T>;
}
