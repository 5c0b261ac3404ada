import { appendFileSync } from 'node:fs';
import { request as httpRequest, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppRoute } from '@ts-rest/core';
import { SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, ERROR_CATALOGUE, ID_PREFIXES, type ObjectType, type RouteAccess } from '@svc/contract';
import { newId } from '../../src/core/ids';
import { routesOf } from '../../src/core/unknown-route';
import { createTenant } from '../../src/modules/platform/tenants/tenants.service';
import { createTestServer, OPERATOR_TOKEN, type TestServer } from '../harness';
import { elementOf, fieldsOf, isZod, kindOf, sample } from './zod-samples';

/**
 * A sweep of bad input over every route of the contract, and the routes beside it (upload receiver, docs): whatever
 * arrives, the answer is a 2xx or the spec's error shape with a catalogued code, never a 5xx and never a stack trace.
 * Requests go over a real socket, so paths reach Express byte for byte (`..`, `%00`, broken percent-encoding).
 */

let t: TestServer;
let server: Server;
let port: number;
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
let keys: { secret: string; publishable: string };
/** A real object per ID prefix, so bad bodies also reach the services behind validation. */
const real: Partial<Record<string, string>> = {};
let uploadToken = '';
/** Customer tokens signed with the tenant's real key but odd claims (filled once the key exists). */
const signedTokens: string[] = [];

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function send(r: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...r.headers };
    if (r.body !== undefined) headers['content-length'] = Buffer.byteLength(r.body);
    const req = httpRequest({ host: '127.0.0.1', port, method: r.method, path: r.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

const STACK = /\n\s+at\s|\(\/[^)]+:\d+:\d+\)|node_modules|\/src\/[\w/-]+\.ts/;

/** The problem with an answer, or null when it is a 2xx (or, outside the contract, a 3xx) or the spec's error shape. */
function problemWith(a: Answer, allowRedirect = false): string | null {
  if (a.status >= 500) return `${a.status}: ${a.text.slice(0, 300)}`;
  if (STACK.test(a.text) && !/^(text\/html|application\/javascript)/.test(String(a.headers['content-type']))) {
    return `stack trace in body: ${a.text.slice(0, 300)}`;
  }
  if (a.status < 300) return null;
  if (a.status < 400) return allowRedirect ? null : `unexpected ${a.status}`;
  let body: { error?: Record<string, unknown> };
  try {
    body = JSON.parse(a.text);
  } catch {
    return `${a.status} with a body that is not JSON: ${a.text.slice(0, 200)}`;
  }
  const error = body.error;
  if (!error || typeof error.code !== 'string') return `${a.status} without error.code: ${a.text.slice(0, 200)}`;
  if (!Object.hasOwn(ERROR_CATALOGUE, error.code)) return `${a.status} with uncatalogued code ${error.code}`;
  const entry = ERROR_CATALOGUE[error.code as keyof typeof ERROR_CATALOGUE];
  if (entry.status !== a.status) return `${error.code} answered ${a.status}, catalogue says ${entry.status}`;
  if (typeof error.message !== 'string' || error.message.length === 0) return `${error.code} without a message`;
  if ('reduced' in entry) return null;
  if (error.type !== entry.type) return `${error.code} with type ${String(error.type)}`;
  if (error.request_id !== a.headers['request-id']) return `${error.code} whose request_id is not the Request-Id header`;
  if (typeof error.doc_url !== 'string' || !error.doc_url.endsWith(`#${error.code}`)) return `${error.code} with doc_url ${String(error.doc_url)}`;
  return null;
}

/** Sends every request (a few at a time) and lists what went wrong, each with the request that caused it. */
async function sweep(requests: Sent[], allowRedirect = false): Promise<string[]> {
  const problems: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const r = requests[next++]!;
      let problem: string | null;
      try {
        const answer = await send(r);
        // A HEAD answer has no body to check.
        problem = r.method === 'HEAD' ? (answer.status >= 500 ? `${answer.status}` : null) : problemWith(answer, allowRedirect);
      } catch (err) {
        problem = `no answer: ${(err as Error).message}`;
      }
      if (problem) {
        const body = r.body === undefined ? '' : ` ${String(r.body).slice(0, 200)}`;
        problems.push(`${r.method} ${r.path.slice(0, 160)}${body} → ${problem}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  // `BAD_INPUT_DUMP=/tmp/problems.txt` writes every problem in full, for sorting when there are many.
  if (process.env.BAD_INPUT_DUMP) appendFileSync(process.env.BAD_INPUT_DUMP, problems.map((p) => `${p}\n`).join(''));
  return problems;
}

// --- What is sent -------------------------------------------------------------------------------------------

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
function fill(path: string, value?: string): string {
  return path.replace(/:([A-Za-z_]+)/g, (whole, name: string, offset: number) => {
    if (value !== undefined) return value;
    if (name === 'external_id') return 'fuzz-external';
    if (name === 'segment') return '0';
    const upTo = path.slice(0, offset + whole.length);
    const type = PARAM_TYPES.filter(([re]) => re.test(upTo)).map(([, type]) => type).pop();
    return (type && real[ID_PREFIXES[type]]) ?? (type ? newId(type) : 'x');
  });
}

/** Path parameter values: another prefix's well-formed id, blank, long, unicode, NUL, traversal, broken escapes. */
const PATH_VALUES = [
  newId('ticket'),
  '%20',
  '%09',
  'x'.repeat(300),
  encodeURIComponent('日本語🎥'),
  '%00',
  'ls_%00',
  '..',
  '..%2F..%2Fetc%2Fpasswd',
  '%E0%A4%A',
  '%',
  '%FF%FE',
  '__proto__',
  'constructor',
];

/** A JWT-shaped token with any header, unsigned. */
const jwtWith = (header: object, claims: object = { sub: 'x' }) =>
  `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.AAAA`;
const ODD_TOKENS = [
  'garbage',
  'a.b.c',
  jwtWith({ alg: 'none' }).slice(0, -4),
  jwtWith({ alg: 'HS256', kid: 'k'.repeat(5000) }),
  jwtWith({ alg: 'HS256', kid: { a: 1 } }),
  jwtWith({ alg: 'HS256', kid: 'ctk_\u0000' }),
  jwtWith({ alg: 'HS256', kid: newId('customer_token_key') }, { sub: 'a\u0000', iat: 1, exp: 2 }),
  jwtWith({ alg: 'RS256', kid: 'psk_\u0000' }),
  jwtWith({ alg: 'RS256', kid: newId('signing_key') }),
  `${Buffer.from('[]').toString('base64url')}.${Buffer.from('null').toString('base64url')}.AAAA`,
];

/** Query strings any route may get: repeated, bracketed into objects or arrays, huge, negative, NUL. */
const COMMON_QUERIES = [
  'limit[a]=1',
  'expand[0][x]=1',
  'metadata=str',
  'metadata[a][b][c]=1',
  'metadata[__proto__]=x',
  'metadata[k]=%00',
  'limit=1&limit=2',
  'limit=1e400',
  'limit=-5',
  'limit=99999999999999999999',
  'page=99999999999999999999&per_page=1',
  'page[]=1',
  'cursor[a]=b',
  'cursor=%00',
  'cursor=AAAA',
  'cursor=' + 'x'.repeat(400),
  ...[['n', '\u0000'], ['n', { a: 1 }], ['p', 'x'.repeat(10_000)], ['x', 'ls_1'], null].map(
    (c) => `cursor=${Buffer.from(JSON.stringify(c)).toString('base64url')}`,
  ),
  'starting_after[]=x',
  'starting_after=%00',
  'ending_before=' + encodeURIComponent('日本語🎥'),
  'expand[]=__proto__',
  'expand[]=constructor.prototype',
  'expand=' + 'a.'.repeat(50),
  'external_id=%00',
  'external_id[a]=1',
  '__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
  'token[a]=1',
  'token=1&token=2',
  'token=%00',
  ...ODD_TOKENS.map((token) => `token=${encodeURIComponent(token)}`),
  'created[gte]=not-a-date',
  'status=zzz',
  'type=zzz',
  '%E0%A4%A=1',
  'a=%E0%A4%A',
];

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

/** Bodies that are not the object the route wants at all. Raw text, so malformed JSON stays malformed. */
const DEPTH = 20_000;
const RAW_BODIES = [
  '{"name": "unterminated',
  '{,}',
  '[]',
  '[1,2,3]',
  '"a string"',
  '123',
  '-1',
  '1e999',
  'null',
  'true',
  '',
  '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}',
  '{"a": 1, "a": 2}',
  '{"x": "\\u0000"}',
  '{"x": "\\ud800"}',
  '[' .repeat(DEPTH) + ']'.repeat(DEPTH),
  '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH),
];

/** Wrong values for one field, as raw JSON so `1e999` and 30-digit integers reach the parser as sent. */
const WRONG_VALUES = [
  'null',
  'true',
  '-1',
  '0',
  '1.5',
  '1e308',
  '1e999',
  '2147483648',
  '9223372036854775808',
  '123456789012345678901234567890',
  '""',
  '"zzz_unknown"',
  '"2026-13-45T25:61:00Z"',
  '"+275760-09-13T00:00:00.001Z"',
  '"-000001-01-01T00:00:00Z"',
  JSON.stringify('x'.repeat(5000)),
  '"nul\\u0000byte"',
  '"lone\\ud800surrogate"',
  '{"k": "\\udfff", "\\ud800": "v"}',
  '{"prototype": "v", "constructor": "v"}',
  JSON.stringify('日本語🎥'),
  '"../../etc/passwd"',
  '[]',
  '[1, "a", null, {}]',
  '{}',
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '{"a":'.repeat(200) + '1' + '}'.repeat(200),
];

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
    'POST /v1/streams/playback_ids': { resource: real.ls },
    'POST /v1/streams/assets/:id/clips': { start_time: 0, end_time: 10 },
    'POST /v1/access/entitlements': { customer: 'viewer-1', resource: { type: 'ls', id: real.ls }, source: 'tenant_grant' },
    'POST /v1/access/check': { customer: 'viewer-1', resource: { type: 'ls', id: real.ls } },
    'POST /v1/access/sessions': { customer: 'viewer-1', resource: real.ls, device_id: 'device-1' },
    'POST /v1/streams/playback_tokens': { customer: 'viewer-1', resource: real.ls, device_id: 'device-1' },
    'POST /v1/access/sessions/:id/heartbeat': { customer: 'viewer-1' },
  };
  return overrides[key] ?? ((sample(bodySchema(route)) as Record<string, unknown>) ?? {});
}

let idempotencyCounter = 0;

/** Headers of a request by the right credential for the route; mutating requests carry an Idempotency-Key. */
function headersFor(route: AppRoute, extra: Record<string, string> = {}): Record<string, string> {
  const a = accessOf(route);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...extra };
  if (a.auth === 'operator') headers.authorization = `Bearer ${OPERATOR_TOKEN}`;
  if (a.auth === 'tenant') headers.authorization = `Bearer ${keys.secret}`;
  if (route.method !== 'GET') headers['idempotency-key'] = `bad-input-${idempotencyCounter++}`;
  return headers;
}

function requestsFor(route: AppRoute): Sent[] {
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
    for (const token of [...ODD_TOKENS, ...signedTokens, keys.secret]) {
      const headers = { ...headersFor(route), 'svc-publishable-key': keys.publishable, authorization: `Bearer ${token}` };
      out.push({ method: route.method, path, headers, body });
    }
    out.push({ method: route.method, path, headers: { ...headersFor(route), 'svc-publishable-key': 'pk_test_%00' }, body });
  }
  if (a.auth === 'operator') {
    out.push({ method: route.method, path, headers: { ...headersFor(route), authorization: `Bearer ${keys.secret}` }, body });
    out.push({ method: route.method, path, headers: { ...headersFor(route), authorization: `Bearer ${'x'.repeat(10_000)}` }, body });
  }
  return out;
}

// --- Fixtures -----------------------------------------------------------------------------------------------

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const a = await send({
    method,
    path,
    headers: { authorization: `Bearer ${keys.secret}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(a.status, `${method} ${path}: ${a.text}`).toBeLessThan(300);
  return JSON.parse(a.text).data as Record<string, any>;
}

beforeAll(async () => {
  t = await createTestServer({ SVC_RATE_LIMIT_PUBLIC: '1000000' });
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as AddressInfo).port;
  const tenant = await createTenant(t.ctx.db, {
    name: 'Bad input',
    rate_limits: { secret: 1_000_000, publishable: 1_000_000 },
    video: { dedicated_environment: true },
  });
  keys = tenant.keys.test;
  real.ten = (await createTenant(t.ctx.db, { name: 'Operator target' })).tenant.id;

  const stream = await call('POST', '/v1/streams/live_streams', { external_id: 'fuzz-external' });
  real.ls = stream.id;
  real.pb = stream.playback_ids[0].id;
  real.sct = (await call('POST', `/v1/streams/live_streams/${real.ls}/simulcast_targets`, { url: 'rtmps://live.example.com/app', stream_key: 'k' })).id;
  real.ast = (await call('POST', '/v1/streams/assets', { url: 'https://example.com/v.mp4', external_id: 'fuzz-external' })).id;
  await call('POST', `/v1/test_helpers/assets/${real.ast}/simulate`, { event: 'ready', duration: 600 });
  real.clp = (await call('POST', `/v1/streams/assets/${real.ast}/clips`, { start_time: 0, end_time: 10 })).id;
  real.mom = (await call('POST', `/v1/streams/live_streams/${real.ls}/moments`, { type: 'goal' })).id;
  const upload = await call('POST', '/v1/streams/uploads', {});
  real.upl = upload.id;
  uploadToken = new URL(upload.url).searchParams.get('token')!;
  real.psk = (await call('POST', '/v1/streams/signing_keys', {})).id;
  real.whe = (await call('POST', '/v1/webhook_endpoints', { url: 'http://127.0.0.1:4999/hooks', enabled_events: ['*'], external_id: 'fuzz-external' })).id;
  real.key = (await call('POST', '/v1/keys', { type: 'publishable', name: 'fuzz', external_id: 'fuzz-external' })).id;
  const tokenKey = await call('POST', '/v1/access/customer_token_keys', { name: 'fuzz' });
  real.ctk = tokenKey.id;
  // Tokens the tenant really signed, with claims no viewer should have.
  const now = Math.floor(Date.now() / 1000);
  for (const claims of [{ sub: 'viewer\u0000' }, { sub: '日本語🎥'.repeat(20) }, { sub: 'viewer-1', ctry: 'K\u0000' }, { sub: { a: 1 } }]) {
    signedTokens.push(
      await new SignJWT({ aud: 'svc', iat: now, exp: now + 600, ...claims } as JWTPayload)
        .setProtectedHeader({ alg: 'HS256', kid: tokenKey.id })
        .sign(new TextEncoder().encode(tokenKey.secret)),
    );
  }
  const grant = { customer: 'viewer-1', resource: { type: 'ls', id: real.ls }, source: 'tenant_grant', external_id: 'fuzz-external' };
  real.ent = (await call('POST', '/v1/access/entitlements', grant, { 'idempotency-key': 'fixture-grant' })).id;
  real.as = (await call('POST', '/v1/access/sessions', { customer: 'viewer-1', resource: real.ls, device_id: 'fixture' })).id;
  const events = await send({ method: 'GET', path: '/v1/events?limit=1', headers: { authorization: `Bearer ${keys.secret}` } });
  real.evt = JSON.parse(events.text).data[0].id;
}, 60_000);

afterAll(async () => {
  agent.destroy();
  await new Promise((r) => server?.close(r));
  await t?.close();
});

// --- The sweep ----------------------------------------------------------------------------------------------

// Routes that end or change their object go last, so the others still find the fixtures.
const destructive = (r: AppRoute) => r.method === 'DELETE' || /\/(roll|roll_secret|disable|cancel|suspend)$/.test(r.path);
const routes = [...routesOf(contract).filter((r) => !destructive(r)), ...routesOf(contract).filter(destructive)];

describe('every contract route answers bad input with a 2xx or the error shape', () => {
  it('covers every route of the contract', () => {
    expect(routes.length).toBe(routesOf(contract).length);
    expect(routes.length).toBeGreaterThan(50);
  });

  for (const route of routes) {
    it(`${route.method} ${route.path}`, async () => {
      expect(await sweep(requestsFor(route))).toEqual([]);
    });
  }
});

describe('routes outside the contract', () => {
  it('the upload receiver answers bad ids, tokens, origins and bodies with the error shape', async () => {
    const requests: Sent[] = [];
    const ids = [...PATH_VALUES, real.upl!, newId('upload')];
    const tokens = ['', `token=${uploadToken}`, 'token=wrong', 'token[a]=1', 'token=1&token=2', 'token=%00', `token=${'x'.repeat(5000)}`];
    for (const id of ids) {
      for (const q of tokens) {
        for (const method of ['PUT', 'OPTIONS']) {
          requests.push({ method, path: `/v1/streams/uploads/${id}/file?${q}`, headers: { origin: 'https://evil.example' }, body: method === 'PUT' ? 'bytes' : undefined });
        }
      }
    }
    const path = `/v1/streams/uploads/${real.upl}/file?token=${uploadToken}`;
    requests.push({ method: 'PUT', path, headers: { origin: '%00' }, body: 'x' });
    requests.push({ method: 'PUT', path, body: '' });
    requests.push({ method: 'OPTIONS', path, headers: { origin: 'https://a.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x'.repeat(5000) } });
    expect(await sweep(requests)).toEqual([]);
  });

  it('the docs routes answer odd paths with a page, a redirect or the error shape', async () => {
    const paths = [
      '/docs',
      '/docs/',
      '/docs/errors',
      '/docs/errors?x[y]=1',
      '/docs/init.js',
      '/openapi.json',
      '/openapi.json?limit[a]=1',
      '/docs/assets',
      '/docs/assets/',
      '/docs/assets/swagger-ui.css',
      '/docs/assets/../package.json',
      '/docs/assets/..%2Fpackage.json',
      '/docs/assets/%2e%2e/%2e%2e/package.json',
      '/docs/assets/%00',
      '/docs/assets/%E0%A4%A',
      '/docs/assets/nope.js',
      `/docs/assets/${'x'.repeat(300)}`,
      '/docs/%00',
      '/%00',
      '/%E0%A4%A',
      '//v1/keys',
      '/v1/keys/',
      '/v1//keys',
      '/V1/KEYS',
    ];
    const requests: Sent[] = paths.flatMap((path) =>
      ['GET', 'HEAD', 'POST', 'OPTIONS', 'PROPFIND'].map((method) => ({ method, path, headers: { authorization: `Bearer ${keys.secret}` } })),
    );
    expect(await sweep(requests, true)).toEqual([]);
  });

  it('every contract path answers OPTIONS, HEAD and unknown methods with a 2xx or the error shape', async () => {
    const requests: Sent[] = routes.flatMap((route) =>
      ['OPTIONS', 'HEAD', 'PUT', 'PROPFIND'].map((method) => ({
        method,
        path: fill(route.path),
        headers: { origin: 'https://player.example', 'access-control-request-method': 'POST', authorization: `Bearer ${keys.secret}` },
      })),
    );
    expect(await sweep(requests)).toEqual([]);
  });
});
