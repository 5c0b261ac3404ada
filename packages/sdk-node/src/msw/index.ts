import { contract, ERROR_CATALOGUE, type Contract, type ErrorCode } from '@svc/contract';
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { z } from 'zod';
import type { ContractRoute } from '../core/types';
import { fakeFromSchema, itemSchemaOf } from './fake';
import { parseQuery } from './query';
import { MockStore, mockId, type MockObject } from './store';

/** Dotted names of the contract's routes: `'keys.create'`, `'streams.liveStreams.list'`, … */
export type RouteName<T = Contract, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends ContractRoute ? `${P}${K}` : RouteName<T[K], `${P}${K}.`>;
}[keyof T & string];

interface Forced {
  code: ErrorCode;
  times: number;
  message?: string;
  details?: Record<string, unknown>;
}

export interface SvcMockOptions {
  /** Where the SDK under test points; default `http://127.0.0.1:4000`. */
  baseUrl?: string;
}

const isRoute = (v: unknown): v is ContractRoute & Record<string, unknown> =>
  typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'responses' in v;

function flatten(router: object, prefix = ''): Array<[string, ContractRoute & Record<string, unknown>]> {
  return Object.entries(router).flatMap(([k, v]) => (isRoute(v) ? [[`${prefix}${k}`, v] as [string, typeof v]] : flatten(v as object, `${prefix}${k}.`)));
}

const errorBody = (code: ErrorCode, message?: string, details?: Record<string, unknown>, param?: string) => {
  const entry = ERROR_CATALOGUE[code];
  return HttpResponse.json(
    {
      error: {
        type: entry.type,
        code,
        message: message ?? entry.description,
        param: param ?? null,
        details: details ?? null,
        request_id: mockId('request'),
        doc_url: `https://svc.mock/docs/errors#${code}`,
      },
    },
    { status: entry.status, headers: code === 'rate_limited' ? { 'Retry-After': '0' } : undefined },
  );
};

/** Validation the way the server reports it: messages keyed by the field's dotted path. */
function validate(schema: unknown, value: unknown): { ok: true; value: unknown } | { ok: false; response: Response } {
  if (!schema || typeof (schema as z.ZodType).safeParse !== 'function') return { ok: true, value };
  const result = (schema as z.ZodType).safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const details: Record<string, string[]> = {};
  for (const issue of result.error.issues) (details[issue.path.join('.') || 'body'] ??= []).push(issue.message);
  return { ok: false, response: errorBody('validation_failed', 'Invalid request.', details, Object.keys(details)[0]) };
}

const successStatus = (route: ContractRoute) => Number(Object.keys(route.responses).find((s) => Number(s) < 300) ?? 200);
const successSchema = (route: ContractRoute) => route.responses[successStatus(route)];

/**
 * msw handlers for every route of the contract, for tenants' own tests: each request is validated against
 * the contract and answered from a small in-memory store (create → get → list → update → delete), and any
 * catalogued error can be forced on any route.
 */
export function createSvcMock(options: SvcMockOptions = {}) {
  const baseUrl = (options.baseUrl ?? 'http://127.0.0.1:4000').replace(/\/+$/, '');
  const store = new MockStore();
  const forced = new Map<string, Forced>();
  const routes = flatten(contract);
  const collections = new Set(routes.filter(([, r]) => !/\/:[^/]+$/.test(r.path)).map(([, r]) => r.path));

  /** The collection an item route belongs to, and what follows the item id. */
  function locate(path: string): { collection: string; rest: string } | undefined {
    const m = /^(.*)\/:[^/]+(\/.*)?$/.exec(path);
    if (!m) return undefined;
    const base = m[1]!.replace(/\/external$/, '');
    return collections.has(base) ? { collection: base, rest: m[2] ?? (m[1]!.endsWith('/external') ? 'external' : '') } : undefined;
  }

  function create(route: ContractRoute, collection: string, body: Record<string, unknown>): MockObject | undefined {
    const found = itemSchemaOf(successSchema(route));
    if (!found || found.list) return undefined;
    const base = fakeFromSchema(found.item) as Record<string, unknown>;
    const shape = (found.item as z.ZodObject).shape ?? {};
    const known = Object.fromEntries(Object.entries(body).filter(([k]) => k in shape));
    const now = new Date().toISOString();
    const object: MockObject = { ...base, ...known, id: mockId(base.object as string) };
    for (const field of ['created_at', 'updated_at']) if (field in shape) object[field] = now;
    return store.insert(collection, object);
  }

  function list(route: ContractRoute, collection: string, query: Record<string, unknown>) {
    const meta = ((successSchema(route) as z.ZodObject).shape?.meta as z.ZodObject | undefined)?.shape?.pagination as z.ZodObject | undefined;
    const filters = Object.entries(query).filter(([k]) => !['limit', 'cursor', 'starting_after', 'ending_before', 'page', 'per_page', 'expand', 'metadata'].includes(k));
    const metadata = (query.metadata ?? {}) as Record<string, string>;
    const all = store
      .all(collection)
      .filter((o) => filters.every(([k, v]) => !(k in o) || o[k] === v))
      .filter((o) => Object.entries(metadata).every(([k, v]) => (o.metadata as Record<string, string> | undefined)?.[k] === v))
      .slice()
      .reverse();
    if (meta && 'current_page' in meta.shape) {
      const perPage = Number(query.per_page ?? 20);
      const page = Number(query.page ?? 1);
      return {
        data: all.slice((page - 1) * perPage, page * perPage),
        meta: { pagination: { current_page: page, total_pages: Math.max(1, Math.ceil(all.length / perPage)), per_page: perPage, total: all.length } },
      };
    }
    const limit = Number(query.limit ?? 20);
    const cursor = typeof query.cursor === 'string' ? JSON.parse(atob(query.cursor)) as [string, string] : undefined;
    const after = cursor?.[0] === 'n' ? cursor[1] : (query.starting_after as string | undefined);
    const before = cursor?.[0] === 'p' ? cursor[1] : (query.ending_before as string | undefined);
    let start = 0;
    let end = all.length;
    if (after) start = all.findIndex((o) => o.id === after) + 1;
    if (before) end = Math.max(0, all.findIndex((o) => o.id === before));
    const data = before && !after ? all.slice(Math.max(start, end - limit), end) : all.slice(start, start + limit);
    const firstIndex = data[0] ? all.indexOf(data[0]) : start;
    const lastIndex = data.length ? all.indexOf(data.at(-1)!) : start - 1;
    const olderExist = lastIndex < all.length - 1;
    const newerExist = firstIndex > 0;
    return {
      data,
      meta: {
        pagination: {
          limit,
          has_more: before && !after ? newerExist : olderExist,
          next_cursor: olderExist && data.length ? btoa(JSON.stringify(['n', data.at(-1)!.id])) : null,
          prev_cursor: newerExist && data.length ? btoa(JSON.stringify(['p', data[0]!.id])) : null,
        },
      },
    };
  }

  function answer(route: ContractRoute, params: Record<string, string>, query: Record<string, unknown>, body: Record<string, unknown>) {
    const status = successStatus(route);
    const notFound = () => errorBody('resource_not_found', `No such object: '${Object.values(params)[0]}'.`, undefined, Object.keys(params)[0]);
    if (collections.has(route.path)) {
      if (route.method === 'GET') return HttpResponse.json(list(route, route.path, query), { status });
      const created = create(route, route.path, body);
      // A secret is shown once, in the create answer, and never stored.
      const shown = created && 'secret' in ((itemSchemaOf(successSchema(route))?.item as z.ZodObject).shape ?? {}) ? { ...created, secret: `${String(created.object ?? 'obj')}_secret_${mockId('')}` } : created;
      if (shown) return HttpResponse.json({ data: shown }, { status });
    }
    const at = locate(route.path);
    if (at) {
      const object = at.rest === 'external' ? store.find(at.collection, 'external_id', Object.values(params)[0]) : store.get(at.collection, Object.values(params)[0]!);
      if (!object) return notFound();
      if (route.method === 'PATCH') Object.assign(object, body);
      if (route.method === 'DELETE' && at.rest === '') {
        // Objects with a final state (revoked key or entitlement, ended session) keep existing in it.
        const shape = (itemSchemaOf(successSchema(route))?.item as z.ZodObject | undefined)?.shape ?? {};
        const field = ['status', 'state'].find((f) => f in shape);
        const final = field ? (shape[field] as z.ZodEnum).options?.find((o) => ['revoked', 'deleted', 'ended', 'cancelled'].includes(String(o))) : undefined;
        if (field && final) object[field] = final;
        else store.remove(at.collection, object.id);
      }
      return HttpResponse.json({ data: object }, { status });
    }
    return HttpResponse.json(fakeFromSchema(successSchema(route) as z.ZodType) as Record<string, unknown>, { status });
  }

  const handlers: HttpHandler[] = routes.map(([name, route]) => {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
    return http[method](`${baseUrl}${route.path}`, async ({ request, params }) => {
      const force = forced.get(name);
      if (force) {
        if (--force.times <= 0) forced.delete(name);
        return errorBody(force.code, force.message, force.details);
      }
      if (!request.headers.get('authorization') && !request.headers.get('svc-publishable-key') && (route.metadata as { access?: { auth: string } })?.access?.auth !== 'public') {
        return errorBody('api_key_missing');
      }
      const text = await request.text();
      let body: unknown = undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        return errorBody('malformed_json');
      }
      const p = validate(route.pathParams, params);
      if (!p.ok) return p.response;
      const q = validate(route.query, parseQuery(new URL(request.url).searchParams));
      if (!q.ok) return q.response;
      const b = validate(route.body, body);
      if (!b.ok) return b.response;
      return answer(route, params as Record<string, string>, (q.value ?? {}) as Record<string, unknown>, (b.value ?? {}) as Record<string, unknown>);
    });
  });

  return {
    handlers,
    store,
    /** The next `times` (default 1) calls of `route` answer with the catalogued error `code`. */
    forceError(route: RouteName, code: ErrorCode, opts: { times?: number; message?: string; details?: Record<string, unknown> } = {}) {
      forced.set(route, { code, times: opts.times ?? 1, message: opts.message, details: opts.details });
    },
    /** Clears the store and forced errors (call between tests). */
    reset() {
      store.reset();
      forced.clear();
    },
  };
}

export { fakeFromSchema } from './fake';
export type { MockObject } from './store';
