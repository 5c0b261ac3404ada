// `pnpm bench`: the hot paths against this machine's ceilings. See docs/benchmarks.md for the last figures.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Api } from './api';
import { measure, type Load } from './measure';
import { ROOT, start, type Running } from './processes';
import { summariseProfiles } from './profile-summary';
import { settle } from './scenarios/settle';
import { console_, header, save, type Row } from './report';
import { SCENARIOS, type Context } from './scenarios/index';
import { DarajaFake } from '../../server/test/kit/fakes/daraja-fake';
import type { Measure } from './scenarios/types';

const { values } = parseArgs({
  // `pnpm bench -- --duration 5` hands the script a literal `--` first.
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    /**
     * Scenarios to run, comma-separated: floor, heartbeat, session-open, access-check, entitlement-grant,
     * list-live-streams, ticket-rush, attribution-rush, payment-confirmations, merch-rush, renewals, public-event-page, signed-in-read, door-scans,
     * rate-limits, hostile, console-first-load, webhook-fan-out.
     */
    only: { type: 'string' },
    'big-history': { type: 'string', default: '1000000' },
    'webhook-rate': { type: 'string', default: '1200' },
    /** Scales the ticketing scenarios' fixed sizes (2,000 buyers, 500 seats, 2,000 orders), e.g. 0.1 for a quick try. */
    'ticketing-scale': { type: 'string', default: '1' },
    /** Paid orders the analytics-at-scale scenario seeds, with twice as many tickets, e.g. 100000 for a quick try. */
    'analytics-orders': { type: 'string', default: '1000000' },
    /** Subscriptions the renewals scenario seeds due at once, e.g. 5000 for a quick try. */
    renewals: { type: 'string', default: '100000' },
    /** More Node flags for the server process, after those of its `start` script (e.g. `--max-old-space-size=1024`). */
    'node-flags': { type: 'string' },
    /** The server's build to run, relative to packages/server (another build beside it: two builds back to back tell a change from the machine). */
    server: { type: 'string', default: 'dist/main.js' },
    /** Runs the server under `node --cpu-prof` and prints where its time went. */
    'cpu-prof': { type: 'boolean', default: false },
    /**
     * API process counts to measure, comma-separated (`1,2`): each count is a round on its own database, with the
     * server at `SVC_WORKERS` = the count and the ceilings run as as many processes, measured in the same run.
     */
    workers: { type: 'string', default: '1' },
    /** The whole run stops itself after this many seconds, whatever it is doing (default: 900 per `--workers` count). */
    'time-limit': { type: 'string' },
  },
});
const durationSeconds = Number(values.duration);
const connections = Number(values.connections);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function createDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `svc_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The Node flags `pnpm start` runs the server with: those of packages/server's `start` script. */
function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'packages/server/package.json'), 'utf8')) as { scripts: { start: string } };
  const flags = /\bnode((?:\s+--\S+)*)\s+dist\/main\.js/.exec(pkg.scripts.start);
  if (!flags) throw new Error('bench: cannot read how packages/server/package.json starts dist/main.js');
  return flags[1]!.trim().split(/\s+/).filter(Boolean);
}

/** A port free right now, so the bench knows the server's address before it answers. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const servers: Running[] = [];
const databases: Array<Awaited<ReturnType<typeof createDatabase>>> = [];
let cleaning: Promise<void> | undefined;
const cleanUp = () =>
  (cleaning ??= (async () => {
    for (const s of servers.splice(0).reverse()) await s.stop().catch(() => {});
    for (const d of databases.splice(0)) await d.drop().catch(() => {});
  })());

const workerCounts = values.workers.split(',').map(Number);
if (workerCounts.some((n) => !Number.isInteger(n) || n < 1 || n > 64)) throw new Error(`--workers: counts of API processes, e.g. 1,2 (got ${values.workers})`);
const only = values.only?.split(',');
const unknown = only?.filter((name) => !SCENARIOS.some((s) => s.name === name)) ?? [];
if (unknown.length > 0) throw new Error(`--only: no scenario ${unknown.join(', ')}; the scenarios: ${SCENARIOS.map((s) => s.name).join(', ')}`);
const selected = only ? SCENARIOS.filter((s) => only.includes(s.name)) : SCENARIOS;

/** Every selected scenario with the server and the ceilings at `count` processes, on a database of its own. */
async function round(count: number, label: (name: string) => string): Promise<{ rows: Row[]; notes: string[] }> {
  const database = await createDatabase();
  databases.push(database);
  const operatorToken = `op_${randomBytes(24).toString('hex')}`;
  const profileDir = join(ROOT, 'packages/bench/profiles', new Date().toISOString().replace(/[:.]/g, '-'));
  if (values['cpu-prof']) mkdirSync(profileDir, { recursive: true });
  // At its default settings, as `pnpm start` runs it: `LOG_LEVEL` unset (`info`), whatever the shell says.
  const daraja = new DarajaFake();
  const darajaUrl = await daraja.start();
  const svcEnv = {
    DATABASE_URL: database.url,
    // M-Pesa configurations of the run reach the local Daraja (the mpesa-callback scenario).
    MPESA_API_URL: darajaUrl,
    LOG_LEVEL: '',
    SVC_OPERATOR_TOKEN: operatorToken,
    SVC_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    SVC_WORKERS: String(count),
    // The figures measure the server, not the limiter.
    SVC_RATE_LIMIT_PUBLIC: '1000000',
    // Load from 127.0.0.1 may name the client it stands for (`X-Forwarded-For`): the hostile scenario's attacker
    // is another client than the viewers, as it would be in production.
    TRUST_PROXY: 'loopback',
  };
  const startSvc = async (env: Record<string, string>, flags: string[] = []) => {
    const port = await freePort();
    const running = await start(
      process.execPath,
      [...startFlags(), ...(values['node-flags']?.split(/\s+/).filter(Boolean) ?? []), ...flags, values.server],
      { ...svcEnv, PORT: String(port), SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-bench-')), ...env },
      join(ROOT, 'packages/server'),
      `http://127.0.0.1:${port}`,
    );
    servers.push(running);
    return running;
  };
  const svc = await startSvc({}, values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []);
  const ceilings = await start(process.execPath, ['--import', 'tsx', 'src/ceilings.ts'], { DATABASE_URL: database.url, CEILING_WORKERS: String(count), PORT: String(await freePort()) }, join(ROOT, 'packages/bench'));
  servers.push(ceilings);

  const operator = new Api(svc.url, `Bearer ${operatorToken}`);
  const { data } = await operator.call('POST', '/v1/operator/tenants', { name: 'Bench tenant' });
  await operator.call('PATCH', `/v1/operator/tenants/${data.tenant.id}`, { rate_limits: { secret: 100_000, publishable: 100_000 } });
  const load = (url: string, request: Load['request']): Load => ({ url, connections, durationSeconds, request });
  // Each measured load starts with the planner statistics a deployment would have (`settle`).
  const measureOn = (running: Running): Measure => async (request) => {
    await settle(ctx.databaseUrl);
    return measure(load(running.url, request), running);
  };
  const ctx: Context = {
    svc,
    api: new Api(svc.url, `Bearer ${data.keys.test.secret}`),
    operator,
    secretKey: data.keys.test.secret,
    publishableKey: data.keys.test.publishable,
    databaseUrl: database.url,
    tenantId: data.tenant.id,
    connections,
    durationSeconds,
    bigHistory: Number(values['big-history']),
    webhookRate: Number(values['webhook-rate']),
    // Another server process on the same database (its own data directory and port, no media network).
    another: async (env) => {
      const running = await startSvc({ SVC_MEDIA_NETWORK: 'off', SVC_WORKERS: '1', ...env });
      return { running, measure: measureOn(running) };
    },
    ticketingScale: Number(values['ticketing-scale']),
    analyticsOrders: Number(values['analytics-orders']),
    renewals: Number(values.renewals),
    daraja,
  };

  const measureWrite = () => measure(load(ceilings.url, () => ({ method: 'POST', path: '/write' })), ceilings);
  const json = await measure(load(ceilings.url, () => ({ method: 'GET', path: '/json' })), ceilings);
  const first = await measureWrite();
  const rows: Row[] = [
    { scenario: label('ceiling: bare Express JSON'), ...json, ratioToWrite: json.requestsPerSecond / first.requestsPerSecond, writeCeiling: first.requestsPerSecond },
    { scenario: label('ceiling: Express + one UPDATE'), ...first, ratioToWrite: 1, writeCeiling: first.requestsPerSecond },
  ];
  process.stdout.write(`${console_(rows)}\n`);

  const notes: string[] = [];
  const writes = [first.requestsPerSecond];
  for (const [i, scenario] of selected.entries()) {
    // The machine's speed drifts (other work on it, the database warming up): each scenario is compared with a
    // write ceiling measured just before it, not with the one at the start.
    const write = i === 0 ? first : await measureWrite();
    if (i > 0) writes.push(write.requestsPerSecond);
    const outcome = await scenario.run(ctx, measureOn(svc));
    for (const r of outcome.results) {
      const ratioToWrite = r.result.requestsPerSecond / write.requestsPerSecond;
      const row: Row = {
        scenario: label(r.name),
        ...r.result,
        ratioToWrite,
        writeCeiling: write.requestsPerSecond,
        target: r.target?.label,
        met: r.target?.met(r.result, ratioToWrite),
        note: r.note,
      };
      rows.push(row);
      process.stdout.write(`${console_([row])}\n`);
    }
    notes.push(...(outcome.notes ?? []));
  }
  notes.unshift(
    `${label('The write ceiling')} was measured before each scenario: ${writes.join(', ')} requests/s.`,
    `${label('Resident memory')} at the end, per process: server ${svc.rssByProcessMb().join(', ')} MB; ceilings ${ceilings.rssByProcessMb().join(', ')} MB.`,
  );
  for (const s of servers.splice(0).reverse()) await s.stop().catch(() => {});
  await daraja.stop();
  await database.drop().catch(() => {});
  databases.splice(databases.indexOf(database), 1);
  if (values['cpu-prof']) process.stdout.write(`\n${summariseProfiles(profileDir)}\n`);
  return { rows, notes };
}

/**
 * Each path at N processes against itself at one: what running more API processes buys where one JavaScript
 * thread was the limit (the target: ≥ 1.5× at 2 processes).
 */
function scaling(rounds: Array<{ count: number; rows: Row[] }>): string[] {
  const base = rounds.find((r) => r.count === 1);
  if (!base || rounds.length < 2) return [];
  const plain = (scenario: string) => scenario.replace(/ ×\d+$/, '');
  const byName = new Map(base.rows.map((r) => [plain(r.scenario), r.requestsPerSecond]));
  return rounds
    .filter((r) => r.count !== 1)
    .map((r) => {
      const pairs = r.rows.map((row) => {
        const name = plain(row.scenario);
        const one = byName.get(name);
        return one ? `${name} ${(row.requestsPerSecond / one).toFixed(2)}×` : null;
      });
      return `${r.count} processes against 1 (requests/s): ${pairs.filter(Boolean).join('; ')}.`;
    });
}

async function main() {
  process.stdout.write(`${header()}\n`);
  const rounds: Array<{ count: number; rows: Row[]; notes: string[] }> = [];
  for (const count of workerCounts) {
    // One count alone keeps the names of a plain run; several name each row with its process count.
    const label = (name: string) => (workerCounts.length === 1 && count === 1 ? name : `${name} ×${count}`);
    rounds.push({ count, ...(await round(count, label)) });
  }
  const rows = rounds.flatMap((r) => r.rows);
  const notes = [...rounds.flatMap((r) => r.notes), ...scaling(rounds)];
  for (const n of notes) process.stdout.write(`${n}\n`);
  const whole = !values.only;
  const file = save(rows, { cpus: cpus().length, connections, duration_s: durationSeconds, node: process.version, workers: values.workers }, notes, whole);
  process.stdout.write(`\nResults: ${file}\n${whole ? 'Table: docs/benchmarks.md' : 'A partial run (--only): docs/benchmarks.md is left as it was.'}\n`);
  await cleanUp();
}

// Self-stopping: a run that hangs (a server that never answers, a drain that never ends) still ends and cleans up.
const timeLimit = Number(values['time-limit'] ?? 900 * workerCounts.length);
const limit = setTimeout(() => {
  process.stderr.write(`bench: stopped after the ${timeLimit} s time limit\n`);
  void cleanUp().finally(() => process.exit(2));
}, timeLimit * 1000);
limit.unref();
process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));

main()
  .then(() => process.exit(0))
  .catch(async (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    await cleanUp();
    process.exit(1);
  });
