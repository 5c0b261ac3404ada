// `pnpm --filter @svc/bench loop [--requests N] [--cpu-prof]`: the server's CPU time per request of one path,
// measured on a loop of requests from a few connections rather than under full load, so that the figure (and a
// CPU profile of it) is about the request's own work, not about queueing on a busy machine. See docs/benchmarks.md.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Api, pool } from './api';
import { postgresCpu, postgresCpuSince, ROOT, start } from './processes';
import { summariseProfiles } from './profile-summary';
import { seedTickets, secretOf } from './scenarios/door-scans';
import { settle } from './scenarios/settle';
import { customerTokens, liveStream, openSessions, viewers } from './scenarios/seed';
import { signedInMember } from './scenarios/ticketing-reads';
import { bookingBody, publishedEvent } from './scenarios/ticketing-seed';
import type { Context } from './scenarios/types';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    requests: { type: 'string', default: '5000' },
    connections: { type: 'string', default: '4' },
    'cpu-prof': { type: 'boolean', default: false },
    /** Paths measured one after the other (comma-separated); by default the bench's list of live streams. */
    paths: { type: 'string', default: '/v1/streams/live_streams?limit=20&metadata[tier]=gold' },
    /** The server build to run (to compare two builds back to back); by default packages/server/dist. */
    server: { type: 'string', default: 'dist/main.js' },
    /** The server's `LOG_LEVEL`; by default unset, as `pnpm start` runs it. */
    'log-level': { type: 'string', default: '' },
    /** Published events of a new organization, named in the paths as `{organization}` (none made by default). */
    'organizer-events': { type: 'string', default: '0' },
    /** Instead of the paths: this many door scans (`POST …/checkins`, each of its own seeded ticket, by a door member). */
    'door-scans': { type: 'string', default: '0' },
    /** Instead of the paths: bookings of one ticket each (`POST /v1/events/{slug}/book`, publishable key), `--requests` of them. */
    bookings: { type: 'boolean', default: false },
    /** Instead of the paths: bookings refused `409 sold_out` (the ticket type sold out first), `--requests` of them. */
    'refused-bookings': { type: 'boolean', default: false },
    /** Instead of the paths: the simulator confirming pending orders of one ticket each (`POST /v1/checkout/sessions/{id}/pay`), `--requests` of them. */
    payments: { type: 'boolean', default: false },
    /** Instead of the paths: `POST /v1/access/check` round-robin over 1,000 entitled viewers, `--requests` of them. */
    'access-checks': { type: 'boolean', default: false },
    /** Instead of the paths: new entitlement grants (`POST /v1/access/entitlements`), each with its own customer and `Idempotency-Key`, `--requests` of them. */
    grants: { type: 'boolean', default: false },
    /** Instead of the paths: heartbeats round-robin over 1,000 open sessions, from the tenant's server (`server`) or browsers (`browser`). */
    heartbeats: { type: 'string', default: '' },
    /** Measure without planner statistics, even where the bench would analyze the database first (see `settle`). */
    unanalyzed: { type: 'boolean', default: false },
  },
});
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  await c.query(sql);
  await c.end();
}

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** `n` requests (the `i`-th is `send(i)`) over `connections` keep-alive connections; resolves to the count of answers that were not 2xx. */
async function loop(url: string, send: (i: number) => Sent, n: number, connections: number, from = 0): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let bad = 0;
  await pool(Array.from({ length: n }, (_, i) => from + i), connections, (i) =>
    new Promise<void>((resolve, reject) => {
      const { method, path, headers, body } = send(i);
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(`${url}${path}`, { agent, method, headers: payload ? { ...headers, 'content-type': 'application/json' } : headers }, (res) => {
        if (!res.statusCode || res.statusCode < 200 || res.statusCode > 299) bad++;
        res.resume().on('end', resolve);
      }).on('error', reject);
      req.end(payload);
    }),
  );
  agent.destroy();
  return bad;
}

/** The server processes' PostgreSQL backends on `url`'s database (pids as `/proc` names them). */
async function ownBackends(url: string): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    return rows.map((r) => String(r.pid));
  } finally {
    await c.end();
  }
}

/** A port free right now, so the server's address is known before it answers. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** An organization with `events` published events of one ticket type each, for the organizer's paths; its id. */
async function organizerSeed(api: Api, events: number): Promise<string> {
  if (events === 0) return '';
  const { data: org } = await api.call('POST', '/v1/organizations', { name: 'Loop organization', handle: `loop_${randomBytes(4).toString('hex')}`, kind: 'brand' });
  const starts = Date.now() + 30 * 86_400_000;
  await pool(Array.from({ length: events }, (_, i) => i), 4, async (i) => {
    const { data: event } = await api.call('POST', '/v1/organizer/events', {
      organization: org.id,
      name: `Loop Show ${String(i).padStart(3, '0')}`,
      starts_at: new Date(starts).toISOString(),
      ends_at: new Date(starts + 7_200_000).toISOString(),
      capacity: 1000,
    });
    await api.call('POST', `/v1/organizer/events/${event.id}/ticket_types`, { name: 'Regular', pricing_mode: 'fixed', price: 50_000 + (i % 10) * 10_000 });
    await api.call('POST', `/v1/organizer/events/${event.id}/publish`);
  });
  return org.id;
}

async function main() {
  const name = `svc_loop_${Date.now()}`;
  await admin(`CREATE DATABASE ${name}`);
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${name}`;
  const operatorToken = `op_${randomBytes(24).toString('hex')}`;
  const port = await freePort();
  const profileDir = join(ROOT, 'packages/bench/profiles', `loop-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  if (values['cpu-prof']) mkdirSync(profileDir, { recursive: true });
  const env = {
    DATABASE_URL: dbUrl.toString(),
    LOG_LEVEL: values['log-level'],
    SVC_OPERATOR_TOKEN: operatorToken,
    SVC_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    SVC_RATE_LIMIT_PUBLIC: '1000000',
  };
  const startServer = async (flags: string[], port: number) =>
    start(
      process.execPath,
      ['--max-old-space-size=512', ...flags, values.server],
      { ...env, PORT: String(port), SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-loop-')) },
      join(ROOT, 'packages/server'),
      // Below `info` the server logs no line that says where it listens.
      `http://127.0.0.1:${port}`,
    );
  const svc = await startServer(values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [], port);
  try {
    const operator = new Api(svc.url, `Bearer ${operatorToken}`);
    const { data } = await operator.call('POST', '/v1/operator/tenants', { name: 'Loop tenant' });
    await operator.call('PATCH', `/v1/operator/tenants/${data.tenant.id}`, { rate_limits: { secret: 100_000, publishable: 100_000 } });
    const authorization = `Bearer ${data.keys.test.secret}`;
    const api = new Api(svc.url, authorization);
    const n = Number(values.requests);
    const connections = Number(values.connections);
    const measure = async (label: string, send: (i: number) => Sent, warm: number) => {
      // Warm-up: the JIT and the database's caches.
      await loop(svc.url, send, warm, connections);
      if (!values.unanalyzed) await settle(dbUrl.toString());
      const cpuBefore = svc.cpuSeconds();
      const postgresBefore = postgresCpu();
      const started = performance.now();
      const bad = await loop(svc.url, send, n, connections, warm);
      const cpu = svc.cpuSeconds() - cpuBefore;
      // Every PostgreSQL process on the machine: others' work included, so only comparable back to back.
      const postgres = postgresCpuSince(postgresBefore);
      // The backends of this database alone (the server's pooled connections): its statements' own cost.
      const after = postgresCpu();
      const own = (await ownBackends(dbUrl.toString())).reduce((sum, pid) => sum + (after.get(pid) ?? 0) - (postgresBefore.get(pid) ?? 0), 0);
      const seconds = (performance.now() - started) / 1000;
      process.stdout.write(
        `${n} × ${label} over ${connections} connections: ${((cpu * 1e6) / n).toFixed(0)} µs of server CPU per request, ` +
          `${((postgres * 1e6) / n).toFixed(0)} µs of PostgreSQL CPU (${((own * 1e6) / n).toFixed(0)} µs in its own backends), ${Math.round(n / seconds)} requests/s, ${bad} not 2xx\n`,
      );
    };
    if (values.bookings || values['refused-bookings']) {
      // The rush's two kinds of request, apart: a booking that holds its seat, and one refused because none is left.
      const ctx = { svc, api, operator, secretKey: data.keys.test.secret, publishableKey: data.keys.test.publishable, databaseUrl: dbUrl.toString(), tenantId: data.tenant.id } as unknown as Context;
      const warm = Math.min(1000, n);
      const refused = values['refused-bookings'];
      const event = await publishedEvent(ctx, 'Loop Rush', { quantity: refused ? 1 : n + warm + 10, max_per_order: 4 });
      const headers = { 'svc-publishable-key': data.keys.test.publishable };
      const path = `/v1/events/${event.slug}/book`;
      if (refused) await api.call('POST', path, bookingBody(event.ticketType, 1, 'first'));
      const bad = await loop(svc.url, (i) => ({ method: 'POST', path, headers, body: bookingBody(event.ticketType, 1, `loop-${i}`) }), 1, 1);
      process.stdout.write(`the ticket type is ${refused ? 'sold out' : 'open'}: ${bad ? 'a booking was refused' : 'a booking was taken'}\n`);
      await measure(`POST ${path} (${refused ? 'refused' : 'taken'})`, (i) => ({ method: 'POST', path, headers, body: bookingBody(event.ticketType, 1, `loop-${i}`) }), warm);
    } else if (values.payments) {
      // The bench's payment confirmations: orders booked first (25 at a time), then each session paid once.
      const ctx = { svc, api, operator, secretKey: data.keys.test.secret, publishableKey: data.keys.test.publishable, databaseUrl: dbUrl.toString(), tenantId: data.tenant.id } as unknown as Context;
      const warm = Math.min(1000, n);
      const event = await publishedEvent(ctx, 'Loop Payments', { quantity: n + warm + 10, max_per_order: 4 }, { stream: true });
      const book = `/v1/events/${event.slug}/book`;
      const sessions: string[] = [];
      // Booked through another process on the same database, so the measured one's profile holds the confirmations alone.
      const booking = await startServer([], await freePort());
      try {
        const seller = new Api(booking.url, authorization);
        await pool(Array.from({ length: n + warm }, (_, i) => i), 25, async (i) => {
          const { data: booked } = await seller.call('POST', book, bookingBody(event.ticketType, 1, `payer-${i}`), { 'svc-publishable-key': data.keys.test.publishable });
          sessions[i] = /\/checkout\/(cs_[A-Za-z0-9]+)/.exec(String(booked.payment))![1]!;
        });
      } finally {
        await booking.stop();
      }
      const card = { method: 'card', card_number: '4242424242424242' };
      await measure('POST /v1/checkout/sessions/{id}/pay', (i) => ({ method: 'POST', path: `/v1/checkout/sessions/${sessions[i]}/pay`, headers: {}, body: card }), warm);
    } else if (values.grants) {
      // The bench's grants: one stream, a new customer and key for each.
      const ctx = { svc, api, operator, secretKey: data.keys.test.secret, publishableKey: data.keys.test.publishable, databaseUrl: dbUrl.toString(), tenantId: data.tenant.id } as unknown as Context;
      const stream = await liveStream(ctx);
      const run = randomBytes(4).toString('hex');
      await measure(
        'POST /v1/access/entitlements',
        (i) => ({
          method: 'POST',
          path: '/v1/access/entitlements',
          headers: { authorization, 'idempotency-key': `${run}-${i}` },
          body: { customer: `grant-${i}`, resource: { type: 'ls', id: stream.id }, source_ref: `ref-${i}` },
        }),
        Math.min(1000, n),
      );
    } else if (values['access-checks'] || values.heartbeats) {
      // The bench's access check and heartbeats: 1,000 viewers of one stream, each entitled (and with an open session).
      const ctx = { svc, api, operator, secretKey: data.keys.test.secret, publishableKey: data.keys.test.publishable, databaseUrl: dbUrl.toString(), tenantId: data.tenant.id } as unknown as Context;
      const stream = await liveStream(ctx);
      const customers = await viewers(ctx, 'loop', 1000, stream.id);
      if (values['access-checks']) {
        const bodies = customers.map((customer) => ({ customer, resource: { type: 'ls', id: stream.id } }));
        await measure('POST /v1/access/check', (i) => ({ method: 'POST', path: '/v1/access/check', headers: { authorization }, body: bodies[i % bodies.length] }), Math.min(1000, n));
      } else {
        const ids = await openSessions(ctx, stream.id, customers);
        const tokens = values.heartbeats === 'browser' ? await customerTokens(ctx, customers) : [];
        const headersOf = (i: number): Record<string, string> =>
          values.heartbeats === 'browser' ? { 'svc-publishable-key': data.keys.test.publishable, authorization: `Bearer ${tokens[i]}` } : { authorization };
        await measure(`POST /v1/access/sessions/{id}/heartbeat (${values.heartbeats})`, (i) => ({ method: 'POST', path: `/v1/access/sessions/${ids[i % ids.length]}/heartbeat`, headers: headersOf(i % ids.length), body: {} }), Math.min(1000, n));
      }
    } else if (Number(values['door-scans']) > 0) {
      // The bench's door: an event that is on, its tickets copied with SQL, scanned once each by a door member.
      const ctx = { svc, api, operator, secretKey: data.keys.test.secret, publishableKey: data.keys.test.publishable, databaseUrl: dbUrl.toString(), tenantId: data.tenant.id } as unknown as Context;
      const warm = Math.min(1000, n);
      const event = await publishedEvent(ctx, 'Loop Door', { quantity: 2 * (n + warm) + 10 }, { startsInHours: -1 });
      await seedTickets(ctx, event, n + warm);
      const door = await signedInMember(ctx, event.organization, 'checkin');
      const path = `/v1/organizer/events/${event.slug}/checkins`;
      await measure(`POST ${path}`, (i) => ({ method: 'POST', path, headers: door, body: { secret: secretOf(i), type: 'entry', nonce: `loop-${i}` } }), warm);
    } else {
      // The bench's list-live-streams scenario: 200 live streams, a quarter of them `tier: gold`.
      await pool(Array.from({ length: 200 }, (_, i) => i), 10, async (i) => {
        await api.call('POST', '/v1/streams/live_streams', { metadata: { tier: i % 4 === 0 ? 'gold' : 'standard' } });
      });
      const organization = await organizerSeed(api, Number(values['organizer-events']));
      for (const path of values.paths.split(',').map((p) => p.replaceAll('{organization}', organization))) {
        const size = (await (await fetch(`${svc.url}${path}`, { headers: { authorization } })).arrayBuffer()).byteLength;
        await measure(`GET ${path} (${size} bytes)`, () => ({ method: 'GET', path, headers: { authorization } }), Math.min(1000, n));
      }
    }
  } finally {
    await svc.stop();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  if (values['cpu-prof']) process.stdout.write(`\n${summariseProfiles(profileDir)}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
