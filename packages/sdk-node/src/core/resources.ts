import { Page, PagePromise, type ListBody } from './pagination';
import type { RawRequest, RequestOptions, Transport } from './request';
import type { ContractRoute, Resources } from './types';

const isRoute = (value: unknown): value is ContractRoute =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'responses' in value;

/** The contract marks writes that a repeat cannot do twice (heartbeats): they go without a generated key. */
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
  if (route.method === 'GET' || route.method === 'DELETE') return { method: route.method, path, query: hasPayload ? rest : undefined };
  const body = hasPayload ? rest : route.body ? {} : undefined;
  return isRepeatable(route) ? { method: route.method, path, body, repeatable: true } : { method: route.method, path, body };
}

/** Lists answer `{data: [...], meta: {pagination}}`; objects `{data: …}`. */
const isListRoute = (route: ContractRoute) => {
  const ok = (route.responses[200] ?? route.responses[201]) as { shape?: Record<string, unknown> } | undefined;
  const data = ok?.shape?.data as { def?: { type?: string } } | undefined;
  return !!ok?.shape?.meta && data?.def?.type === 'array';
};

function methodFor(transport: Transport, route: ContractRoute) {
  if (isListRoute(route)) {
    return (args?: Record<string, unknown>, options: RequestOptions = {}) => {
      const request = toRequest(route, args);
      return new PagePromise(async () => new Page(transport, request, options, await transport.request<ListBody<unknown>>(request, options)));
    };
  }
  return async (args?: Record<string, unknown>, options: RequestOptions = {}) => {
    const body = await transport.request<{ data?: unknown }>(toRequest(route, args), options);
    return body && typeof body === 'object' && 'data' in body ? body.data : body;
  };
}

/** Builds the method tree from the contract itself, so every route the contract declares is in the SDK. */
export function buildResources<T extends object>(transport: Transport, router: T): Resources<T> {
  return Object.fromEntries(
    Object.entries(router).map(([name, value]) => [name, isRoute(value) ? methodFor(transport, value) : buildResources(transport, value as object)]),
  ) as Resources<T>;
}
