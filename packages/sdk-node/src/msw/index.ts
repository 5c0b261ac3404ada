import { contract, type Contract, type ErrorCode, type EventPayload, type EventType, type RouteAccess } from '@svc/contract';
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { z } from 'zod';
import type { ContractRoute } from '../core/types';
import { answer, makeObject, successSchema } from './answer';
import { checkCredentials } from './auth';
import { errorResponse } from './errors';
import { responseShape } from './fake';
import { parseQuery } from './query';
import { issueSecret } from './secrets';
import { MockStore, type MockObject } from './store';
import { deliveriesOf, makeEvent, type MockDelivery } from './webhooks';

/** Dotted names of the contract's routes: `'keys.create'`, `'streams.liveStreams.list'`, … */
export type RouteName<T = Contract, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends ContractRoute ? `${P}${K}` : RouteName<T[K], `${P}${K}.`>;
}[keyof T & string];

export interface SvcMockOptions {
  /** Where the SDK under test points; default `http://127.0.0.1:4000`. */
  baseUrl?: string;
  /** The operator token operator routes take; by default any. */
  operatorToken?: string;
}

const isRoute = (v: unknown): v is ContractRoute => typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'responses' in v;

/** Every route of the contract with its dotted name. */
export function contractRoutes(router: object = contract, prefix = ''): Array<[string, ContractRoute]> {
  return Object.entries(router).flatMap(([k, v]) => (isRoute(v) ? [[`${prefix}${k}`, v] as [string, ContractRoute]] : contractRoutes(v as object, `${prefix}${k}.`)));
}

/** Validation the way the server reports it: messages keyed by the field's dotted path. */
function validate(schema: unknown, value: unknown): { ok: true; value: unknown } | { ok: false; response: Response } {
  if (!schema || typeof (schema as z.ZodType).safeParse !== 'function') return { ok: true, value };
  const result = (schema as z.ZodType).safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const details: Record<string, string[]> = {};
  for (const issue of result.error.issues) (details[issue.path.join('.') || 'body'] ??= []).push(issue.message);
  return { ok: false, response: errorResponse('validation_failed', 'Invalid request.', details, Object.keys(details)[0]) };
}

/** The object type a route answers (`live_stream` for `streams.liveStreams.create`). */
const objectTypeOf = (route: ContractRoute) => responseShape(successSchema(route))?.object;

/**
 * msw handlers for every route of the contract, for tenants' own tests. Requests are checked like the server
 * checks them (credentials, then the contract's schemas) and answered from an in-memory store with objects
 * that pass the contract's response schemas: real id prefixes, secrets in the server's shapes (`sk_test_…`,
 * `cts_…`, `whsec_…`). Any catalogued error can be forced on any route.
 */
export function createSvcMock(options: SvcMockOptions = {}) {
  const baseUrl = (options.baseUrl ?? 'http://127.0.0.1:4000').replace(/\/+$/, '');
  const store = new MockStore();
  const forced = new Map<string, { code: ErrorCode; times: number; message?: string; details?: Record<string, unknown> }>();
  const routes = contractRoutes();

  const handlers: HttpHandler[] = routes.map(([name, route]) => {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
    return http[method](`${baseUrl}${route.path}`, async ({ request, params }) => {
      const force = forced.get(name);
      if (force) {
        if (--force.times <= 0) forced.delete(name);
        return errorResponse(force.code, force.message, force.details);
      }
      const access = (route.metadata as { access?: RouteAccess } | undefined)?.access;
      const refused = checkCredentials(request, access, store, options.operatorToken);
      if (refused) return errorResponse(refused.code, refused.message, refused.details);
      const text = await request.text();
      let body: unknown = undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        return errorResponse('malformed_json');
      }
      const p = validate(route.pathParams, params);
      if (!p.ok) return p.response;
      const q = validate(route.query, parseQuery(new URL(request.url).searchParams));
      if (!q.ok) return q.response;
      const b = validate(route.body, body);
      if (!b.ok) return b.response;
      const result = answer(store, { route, params: params as Record<string, string>, query: (q.value ?? {}) as Record<string, unknown>, body: (b.value ?? {}) as Record<string, unknown> });
      if ('notFound' in result) return errorResponse('resource_not_found', `No such object: '${result.notFound}'.`, undefined, Object.keys(params)[0]);
      if ('text' in result) return new HttpResponse(result.text, { status: result.status, headers: { 'content-type': result.contentType } });
      return HttpResponse.json(result.body as Record<string, unknown>, { status: result.status });
    });
  });

  return {
    handlers,
    store,
    /**
     * Puts an object in the store as the route `route` would have made it (`'streams.liveStreams.create'`):
     * the contract's smallest valid object of that type with your fields over it. Answers it with its secret,
     * when the type has one (an API key, a customer token key, a webhook endpoint).
     */
    seed(route: RouteName, fields: Record<string, unknown> = {}): MockObject {
      const found = routes.find(([n]) => n === route);
      const shape = found && responseShape(successSchema(found[1]));
      if (!shape || !objectTypeOf(found[1])) throw new TypeError(`Svc mock: ${route} does not answer an object to seed`);
      const object = store.insert({ ...makeObject(shape.item, fields), ...(fields.id ? { id: String(fields.id) } : {}) });
      return 'secret' in ((shape.item as z.ZodObject).shape ?? {}) ? issueSecret(object, store.secrets) : object;
    },
    /**
     * Records an event (listed by `svc.eventLog.list`) and answers it with its signed deliveries to the enabled
     * webhook endpoints in the store whose `enabled_events` match. `deliver: true` also POSTs each one to its
     * endpoint's URL (your handler, or an msw handler for it) and notes the answer's status.
     */
    async triggerEvent<T extends EventType>(type: T, object?: Partial<EventPayload<T>> & Record<string, unknown>, opts: { deliver?: boolean } = {}) {
      const event = makeEvent(store, type, object);
      const deliveries: MockDelivery[] = await deliveriesOf(store, event);
      if (opts.deliver) {
        for (const d of deliveries) {
          d.result = await fetch(d.url, { method: 'POST', headers: d.headers, body: d.body }).then(
            (r) => r.status,
            (e: Error) => e.message,
          );
        }
      }
      return { event, deliveries };
    },
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

export type SvcMock = ReturnType<typeof createSvcMock>;
export { fakeFromSchema } from './fake';
export type { MockObject, MockStore } from './store';
export type { MockDelivery } from './webhooks';
