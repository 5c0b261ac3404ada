import { setupServer } from 'msw/node';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Svc, SvcOperator } from '../src';
import { isRoute, kindOf, pathNames } from '../src/core/resources';
import { contract } from '@svc/contract';
import { arrange } from '../src/layout';
import type { ContractRoute } from '../src/core/types';
import { contractRoutes, createSvcMock } from '../src/msw';
import { successSchema, successStatus } from '../src/msw/answer';
import { fakeFromSchema, responseShape } from '../src/msw/fake';

const baseUrl = 'https://contract.svc.test';
const mock = createSvcMock({ baseUrl, operatorToken: 'op_contract' });
const server = setupServer(...mock.handlers);
let answered: { status: number; body: unknown } | undefined;
const recording: typeof fetch = async (input, init) => {
  const response = await globalThis.fetch(input, init);
  const copy = response.clone();
  answered = { status: response.status, body: copy.headers.get('content-type')?.includes('json') ? await copy.json() : await copy.text() };
  return response;
};
const clients = {
  tenant: new Svc({ apiKey: `sk_test_${'c'.repeat(40)}`, baseUrl, maxRetries: 0, fetch: recording }),
  operator: new SvcOperator({ operatorToken: 'op_contract', baseUrl, maxRetries: 0, fetch: recording }),
};

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const routes = contractRoutes();
const sdkRoutes = routes.filter(([, route]) => kindOf(route));

/** Where the client puts each route (`ticketingPayments.refunds.create` is `orders.refunds.create`). */
const sdkNames = new Map<unknown, string>();
const walk = (tree: object, prefix: string): void =>
  Object.entries(tree).forEach(([k, v]) => (isRoute(v) ? sdkNames.set(v, prefix + k) : walk(v as object, `${prefix}${k}.`)));
walk(arrange(contract), '');

// Inputs the smallest valid value cannot express (a resource to grant, a URL to deliver to).
const inputs: Record<string, Record<string, unknown>> = {
  'access.entitlements.grant': { customer: 'viewer-1', resource: { type: 'ls', id: 'ls_1' }, source_ref: 'pay_1' },
  'access.checks.check': { customer: 'viewer-1', resource: { type: 'ls', id: 'ls_1' } },
  'webhookEndpoints.replay': { event_ids: ['evt_1'] },
  'streams.liveStreams.createSimulcastTarget': { url: 'rtmps://live.example/app', stream_key: 'key' },
  'streams.clips.create': { start_time: 0, end_time: 10 },
  'access.sessions.open': { customer: 'viewer-1', resource: 'ls_1', device_id: 'tv' },
  'access.sessions.createPlaybackToken': { customer: 'viewer-1', resource: 'ls_1' },
  'webhookEndpoints.create': { url: 'https://tenant.example/hooks', enabled_events: ['*'] },
  'keys.create': { type: 'restricted', scopes: ['streams:read'] },
  'payments.providerConfigs.create': { type: 'mpesa', shortcode: '174379', shortcode_type: 'paybill' },
};

/** The object an id in `path` names: the type answered by the GET of the path up to that id. */
function parentType(path: string): string | undefined {
  const upTo = /^(.*?\/:[a-z_]+)/.exec(path)?.[1];
  const owner = routes.find(([, r]) => r.method === 'GET' && r.path === upTo) ?? routes.find(([, r]) => r.path === upTo);
  return owner && responseShape(successSchema(owner[1]))?.object;
}

function argumentsFor(name: string, route: ContractRoute) {
  const input = (route.method === 'GET' || route.method === 'DELETE' ? route.query : route.body) as z.ZodType | undefined;
  const isSchema = typeof input?.safeParse === 'function';
  const payload = { ...(isSchema ? (fakeFromSchema(input!) as Record<string, unknown>) : {}), ...inputs[name] };
  const ids: string[] = [];
  for (const param of pathNames(route.path)) {
    if (ids.length > 0) {
      ids.push('sct_1');
      continue;
    }
    const type = parentType(route.path) ?? responseShape(successSchema(route))?.object;
    // A path naming no object of the API (a creator organization's handle, an event's slug) takes any value.
    if (!type) {
      ids.push(`mock_${param}`);
      continue;
    }
    const answering = routes.filter(([, r]) => responseShape(successSchema(r))?.object === type && !responseShape(successSchema(r))?.list);
    const seedRoute = answering.find(([, r]) => r.method === 'GET') ?? answering[0];
    const seeded = mock.seed(seedRoute![0] as never, { external_id: 'ext_1' });
    ids.push(param === 'external_id' ? 'ext_1' : seeded.id);
  }
  return { ids, payload };
}

describe('every SDK method against the msw mocks', () => {
  it('covers every tenant and operator route', () => {
    expect(sdkRoutes.length).toBeGreaterThan(60);
    expect(sdkRoutes.filter(([, route]) => !sdkNames.has(route)).map(([name]) => name)).toEqual([]);
  });

  it.each(sdkRoutes.map(([name, route]) => [name, route] as const))('%s answers what the contract declares', async (name, route) => {
    const client = clients[kindOf(route)!] as unknown as Record<string, unknown>;
    const method = sdkNames.get(route)!.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], client) as (...a: unknown[]) => Promise<unknown>;
    const { ids, payload } = argumentsFor(name, route);
    answered = undefined;
    // Path ids positionally; the one-object form is covered by the other tests.
    const result = await method(...ids, payload).catch((e: { details?: unknown }) => {
      throw new Error(`${name}: ${JSON.stringify(e.details ?? e)} with ${JSON.stringify(payload)}`);
    });
    expect(answered, name).toBeDefined();
    expect(answered!.status).toBe(successStatus(route));
    const declared = route.responses[successStatus(route)] as { contentType?: string; body?: z.ZodType };
    if (declared.contentType) {
      // A text answer (the attendee CSV): its type, and a body the declared schema takes.
      expect(declared.body!.safeParse(answered!.body).success).toBe(true);
      expect(result).toEqual(answered!.body);
      return;
    }
    const parsed = successSchema(route).safeParse(answered!.body);
    expect(parsed.error?.issues ?? [], JSON.stringify(answered!.body).slice(0, 400)).toEqual([]);
    const data = (answered!.body as { data?: unknown }).data;
    if (responseShape(successSchema(route))?.list && 'meta' in ((successSchema(route) as z.ZodObject).shape ?? {})) expect((result as { data: unknown }).data).toEqual(data);
    else expect(result).toEqual(data ?? answered!.body);
  });
});
