import { appendFileSync } from 'node:fs';
import { request as httpRequest, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, expect } from 'vitest';
import { ERROR_CATALOGUE } from '@svc/contract';
import { createTenant } from '../../src/modules/platform/tenants/tenants.service';
import { createTestServer, type TestServer } from '../harness';

/**
 * The bad-input sweep's server and fixtures: requests go over a real socket, so paths reach Express byte for byte
 * (`..`, `%00`, broken percent-encoding), against a tenant holding a real object per ID prefix.
 */

let t: TestServer;
let server: Server;
let port: number;
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** What the fixtures made, filled by `useBadInputServer` before the file's tests run. */
export const fx = {
  keys: { secret: '', publishable: '' },
  /** A real object per ID prefix, so bad bodies also reach the services behind validation. */
  real: {} as Partial<Record<string, string>>,
  uploadToken: '',
  /** Customer tokens signed with the tenant's real key but odd claims (filled once the key exists). */
  signedTokens: [] as string[],
};

export interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export function send(r: Sent): Promise<Answer> {
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
export async function sweep(requests: Sent[], allowRedirect = false): Promise<string[]> {
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

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const a = await send({
    method,
    path,
    headers: { authorization: `Bearer ${fx.keys.secret}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(a.status, `${method} ${path}: ${a.text}`).toBeLessThan(300);
  return JSON.parse(a.text).data as Record<string, any>;
}

/** Starts the server and makes the fixtures before the calling file's tests; stops it after them. */
export function useBadInputServer(): void {
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
    fx.keys = tenant.keys.test;
    fx.real.ten = (await createTenant(t.ctx.db, { name: 'Operator target' })).tenant.id;

    const stream = await call('POST', '/v1/streams/live_streams', { external_id: 'fuzz-external' });
    fx.real.ls = stream.id;
    fx.real.pb = stream.playback_ids[0].id;
    fx.real.sct = (await call('POST', `/v1/streams/live_streams/${fx.real.ls}/simulcast_targets`, { url: 'rtmps://live.example.com/app', stream_key: 'k' })).id;
    fx.real.ast = (await call('POST', '/v1/streams/assets', { url: 'https://example.com/v.mp4', external_id: 'fuzz-external' })).id;
    await call('POST', `/v1/test_helpers/assets/${fx.real.ast}/simulate`, { event: 'ready', duration: 600 });
    fx.real.clp = (await call('POST', `/v1/streams/assets/${fx.real.ast}/clips`, { start_time: 0, end_time: 10 })).id;
    fx.real.mom = (await call('POST', `/v1/streams/live_streams/${fx.real.ls}/moments`, { type: 'goal' })).id;
    const upload = await call('POST', '/v1/streams/uploads', {});
    fx.real.upl = upload.id;
    fx.uploadToken = new URL(upload.url).searchParams.get('token')!;
    fx.real.psk = (await call('POST', '/v1/streams/signing_keys', {})).id;
    // A published ticketed event (uuid id) for the `{event}` parameter of the ticketing routes.
    fx.real.org = (await call('POST', '/v1/organizations', { name: 'Fuzz', handle: 'fuzz_org', kind: 'brand' })).id;
    const ticketed = await call('POST', '/v1/organizer/events', { organization: fx.real.org, name: 'Fuzz', starts_at: '2030-01-01T18:00:00Z', ends_at: '2030-01-01T20:00:00Z' });
    fx.real.ticketed_event = ticketed.id;
    await call('POST', `/v1/organizer/events/${ticketed.id}/ticket_types`, { name: 'GA', pricing_mode: 'fixed', price: 100 });
    await call('POST', `/v1/organizer/events/${ticketed.id}/publish`);
    fx.real.whe = (await call('POST', '/v1/webhook_endpoints', { url: 'http://127.0.0.1:4999/hooks', enabled_events: ['*'], external_id: 'fuzz-external' })).id;
    fx.real.key = (await call('POST', '/v1/keys', { type: 'publishable', name: 'fuzz', external_id: 'fuzz-external' })).id;
    const tokenKey = await call('POST', '/v1/access/customer_token_keys', { name: 'fuzz' });
    fx.real.ctk = tokenKey.id;
    // Tokens the tenant really signed, with claims no viewer should have.
    const now = Math.floor(Date.now() / 1000);
    for (const claims of [{ sub: 'viewer\u0000' }, { sub: '日本語🎥'.repeat(20) }, { sub: 'viewer-1', ctry: 'K\u0000' }, { sub: { a: 1 } }]) {
      fx.signedTokens.push(
        await new SignJWT({ aud: 'svc', iat: now, exp: now + 600, ...claims } as JWTPayload)
          .setProtectedHeader({ alg: 'HS256', kid: tokenKey.id })
          .sign(new TextEncoder().encode(tokenKey.secret)),
      );
    }
    const grant = { customer: 'viewer-1', resource: { type: 'ls', id: fx.real.ls }, source: 'tenant_grant', external_id: 'fuzz-external' };
    fx.real.ent = (await call('POST', '/v1/access/entitlements', grant, { 'idempotency-key': 'fixture-grant' })).id;
    fx.real.as = (await call('POST', '/v1/access/sessions', { customer: 'viewer-1', resource: fx.real.ls, device_id: 'fixture' })).id;
    const events = await send({ method: 'GET', path: '/v1/events?limit=1', headers: { authorization: `Bearer ${fx.keys.secret}` } });
    fx.real.evt = JSON.parse(events.text).data[0].id;
  }, 60_000);

  afterAll(async () => {
    agent.destroy();
    await new Promise((r) => server?.close(r));
    await t?.close();
  });
}
