import type { AppRoute } from '@ts-rest/core';
import { contract, ID_PREFIXES, type ObjectType, type RouteAccess } from '@svc/contract';
import { newId } from '../../src/core/ids';
import { routesOf } from '../../src/core/unknown-route';
import { OPERATOR_TOKEN } from '../harness';
import { fx, type Sent } from './bad-input-fixture';
import { COMMON_QUERIES, ODD_TOKENS, PATH_VALUES, RAW_BODIES, WRONG_VALUES } from './bad-input-values';
import { fieldsOf, isZod, kindOf, elementOf, sample } from './zod-samples';

/* The bad-input sweep's requests per contract route, built from the route's schemas and metadata. */

const accessOf = (route: AppRoute) => (route.metadata as { access: RouteAccess }).access;
const hasBody = (route: AppRoute) => 'body' in route && isZod((route as { body?: unknown }).body);
const bodySchema = (route: AppRoute) => (route as { body: Parameters<typeof fieldsOf>[0] }).body;
const querySchema = (route: AppRoute) => (route as { query?: unknown }).query;

/** Which object an ID path parameter names, from the path segment before it. */
const PARAM_TYPES: Array<[RegExp, ObjectType]> = [
  [/\/keys\/:id/, 'api_key'],
  [/\/operator\/tenants\/:id/, 'tenant'],
  [/\/webhook_endpoints\/:id/, 'webhook_endpoint'],
  [/\/events\/:id/, 'event'],
  [/\/simulcast_targets\/:target_id/, 'simulcast_target'],
  [/\/live_streams\/:id/, 'live_stream'],
  [/\/playback_ids\/:id/, 'playback_id'],
  [/\/playback\/:playback_id/, 'playback_id'],
  [/\/signing_keys\/:id/, 'signing_key'],
  [/\/assets\/:id/, 'asset'],
  [/\/uploads\/:id/, 'upload'],
  [/\/clips\/:id/, 'clip'],
  [/\/moments\/:id/, 'moment'],
  [/\/entitlements\/:id/, 'entitlement'],
  [/\/sessions\/:id/, 'access_session'],
  [/\/customer_token_keys\/:id/, 'customer_token_key'],
];

/** The path with its parameters filled: by `value`, or by the real object of the right type when `value` is undefined. */
export function fill(path: string, value?: string): string {
  return path.replace(/:([A-Za-z_]+)/g, (whole, name: string, offset: number) => {
    if (value !== undefined) return value;
    if (name === 'external_id') return 'fuzz-external';
    if (name === 'segment') return '0';
    if (name === 'event') return fx.real.ticketed_event ?? 'x';
    const upTo = path.slice(0, offset + whole.length);
    const type = PARAM_TYPES.filter(([re]) => re.test(upTo)).map(([, type]) => type).pop();
    return (type && fx.real[ID_PREFIXES[type]]) ?? (type ? newId(type) : 'x');
  });
}

/** Per query field of the route's schema: the field as an object, repeated, unknown, huge, negative, NUL. */
function queriesFor(route: AppRoute): string[] {
  const schema = querySchema(route);
  if (!isZod(schema)) return [];
  return Object.keys(fieldsOf(schema)).flatMap((f) => [
    `${f}[a]=1`,
    `${f}=1&${f}=2`,
    `${f}=zzz_unknown`,
    `${f}=-1`,
    `${f}=1e400`,
    `${f}=2026-13-45T25:61:00Z`,
    `${f}=%00`,
    `${f}=${'x'.repeat(300)}`,
  ]);
}

const HOLE = '"__bad_input_hole__"';

/** The base body with one field (or one field of a nested object, or of an array's first element) made wrong. */
function fieldBodies(route: AppRoute, base: Record<string, unknown>): string[] {
  const out: string[] = [];
  const fields = fieldsOf(bodySchema(route));
  const withHole = (value: object) => JSON.stringify(value).replace(JSON.stringify(HOLE.slice(1, -1)), '%HOLE%');
  for (const [name, schema] of Object.entries(fields)) {
    const templates = [withHole({ ...base, [name]: HOLE.slice(1, -1) })];
    const nested = kindOf(schema) === 'object' ? fieldsOf(schema) : {};
    for (const sub of Object.keys(nested)) {
      templates.push(withHole({ ...base, [name]: { ...(sample(schema) as object), [sub]: HOLE.slice(1, -1) } }));
    }
    const element = elementOf(schema);
    if (element) {
      templates.push(withHole({ ...base, [name]: [HOLE.slice(1, -1)] }));
      for (const sub of Object.keys(fieldsOf(element))) {
        templates.push(withHole({ ...base, [name]: [{ ...(sample(element) as object), [sub]: HOLE.slice(1, -1) }] }));
      }
    }
    for (const template of templates) for (const wrong of WRONG_VALUES) out.push(template.replace('%HOLE%', wrong));
  }
  return out;
}

/** Bodies that pass validation where the sample generator cannot guess one (real ids, URL schemes, refinements). */
function baseBody(route: AppRoute): Record<string, unknown> {
  const key = `${route.method} ${route.path}`;
  const overrides: Record<string, Record<string, unknown>> = {
    'POST /v1/webhook_endpoints': { url: 'http://127.0.0.1:4999/hooks', enabled_events: ['*'] },
    'POST /v1/webhook_endpoints/:id/replay': { created_from: '2020-01-01T00:00:00Z' },
    'POST /v1/streams/live_streams/:id/simulcast_targets': { url: 'rtmps://live.example.com/app', stream_key: 'k' },
    'POST /v1/streams/playback_ids': { resource: fx.real.ls },
    'POST /v1/streams/assets/:id/clips': { start_time: 0, end_time: 10 },
    'POST /v1/access/entitlements': { customer: 'viewer-1', resource: { type: 'ls', id: fx.real.ls }, source: 'tenant_grant' },
    'POST /v1/access/check': { customer: 'viewer-1', resource: { type: 'ls', id: fx.real.ls } },
    'POST /v1/access/sessions': { customer: 'viewer-1', resource: fx.real.ls, device_id: 'device-1' },
    'POST /v1/streams/playback_tokens': { customer: 'viewer-1', resource: fx.real.ls, device_id: 'device-1' },
    'POST /v1/access/sessions/:id/heartbeat': { customer: 'viewer-1' },
    'POST /v1/organizer/events': { organization: fx.real.org, name: 'Fuzz', starts_at: '2030-02-01T18:00:00Z', ends_at: '2030-02-01T20:00:00Z' },
    'POST /v1/organizer/events/:event/ticket_types': { name: 'GA', pricing_mode: 'fixed', price: 100 },
  };
  return overrides[key] ?? ((sample(bodySchema(route)) as Record<string, unknown>) ?? {});
}

let idempotencyCounter = 0;

/** Headers of a request by the right credential for the route; mutating requests carry an Idempotency-Key. */
function headersFor(route: AppRoute, extra: Record<string, string> = {}): Record<string, string> {
  const a = accessOf(route);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...extra };
  if (a.auth === 'operator') headers.authorization = `Bearer ${OPERATOR_TOKEN}`;
  if (a.auth === 'tenant') headers.authorization = `Bearer ${fx.keys.secret}`;
  if (route.method !== 'GET') headers['idempotency-key'] = `bad-input-${idempotencyCounter++}`;
  return headers;
}

export function requestsFor(route: AppRoute): Sent[] {
  const out: Sent[] = [];
  const body = hasBody(route) ? JSON.stringify(baseBody(route)) : undefined;
  const path = fill(route.path);

  if (route.path.includes(':')) {
    const own = fill(route.path).match(/\/([a-z]+)_[0-9a-z]{26}/)?.[1] ?? 'ls';
    for (const value of [...PATH_VALUES, `${own}_%00`, `${own}_${'0'.repeat(300)}`, `${own}_${'0'.repeat(26)}`]) {
      out.push({ method: route.method, path: fill(route.path, value), headers: headersFor(route), body });
    }
    out.push({ method: route.method, path: fill(route.path, '../..'), headers: headersFor(route), body });
  }
  // Writes ignore most of the query, and some writes are slow on purpose (signing keys make RSA key pairs).
  const common = route.method === 'GET' ? COMMON_QUERIES : COMMON_QUERIES.slice(0, 6);
  for (const q of [...common, ...queriesFor(route)]) {
    out.push({ method: route.method, path: `${path}?${q}`, headers: headersFor(route), body });
  }
  for (const raw of RAW_BODIES) {
    out.push({ method: route.method, path, headers: headersFor(route), body: raw });
    if (raw.length > 1000) {
      // Without an Idempotency-Key too: the key's canonical form is only one of the places a deep body can reach.
      const headers = headersFor(route);
      delete headers['idempotency-key'];
      out.push({ method: route.method, path, headers, body: raw });
    }
  }
  for (const [type, raw] of [
    ['text/plain', '{"a":1}'],
    ['application/x-www-form-urlencoded', 'a=1&b[c]=2'],
    ['application/json; charset=utf-16', '{"a":1}'],
    ['application/json; charset=latin1', '{"a":"\xe9"}'],
    ['multipart/form-data; boundary=x', '--x\r\n\r\n--x--'],
  ] as const) {
    out.push({ method: route.method, path, headers: headersFor(route, { 'content-type': type }), body: raw });
  }
  out.push({ method: route.method, path, headers: headersFor(route, { 'content-encoding': 'gzip' }), body: 'not gzip' });
  out.push({ method: route.method, path, headers: headersFor(route, { 'idempotency-key': 'x'.repeat(300) }), body });
  if (hasBody(route)) {
    for (const b of fieldBodies(route, baseBody(route))) out.push({ method: route.method, path, headers: headersFor(route), body: b });
  }

  const a = accessOf(route);
  if (a.auth === 'tenant' && a.credentials.includes('publishable')) {
    for (const token of [...ODD_TOKENS, ...fx.signedTokens, fx.keys.secret]) {
      const headers = { ...headersFor(route), 'svc-publishable-key': fx.keys.publishable, authorization: `Bearer ${token}` };
      out.push({ method: route.method, path, headers, body });
    }
    out.push({ method: route.method, path, headers: { ...headersFor(route), 'svc-publishable-key': 'pk_test_%00' }, body });
  }
  if (a.auth === 'operator') {
    out.push({ method: route.method, path, headers: { ...headersFor(route), authorization: `Bearer ${fx.keys.secret}` }, body });
    out.push({ method: route.method, path, headers: { ...headersFor(route), authorization: `Bearer ${'x'.repeat(10_000)}` }, body });
  }
  return out;
}

// Routes that end or change their object go last, so the others still find the fixtures.
const destructive = (r: AppRoute) => r.method === 'DELETE' || /\/(roll|roll_secret|disable|cancel|suspend)$/.test(r.path);
/** Every route of the contract, in the order the sweep sends to them. */
export const sweepRoutes = [...routesOf(contract).filter((r) => !destructive(r)), ...routesOf(contract).filter(destructive)];
