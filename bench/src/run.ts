// `pnpm bench`: the hot paths against this machine's ceilings. See docs/benchmarks.md for the last figures.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Api } from './api';
import { measure, type Load, type Result } from './measure';
import { ROOT, start, type Running } from './processes';
import { console_, save, type Row } from './report';
import { SCENARIOS, type Context } from './scenarios';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string' },
    'big-history': { type: 'string', default: '1000000' },
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

/** A port free right now, for a server whose own log is too quiet (`warn`) to announce it. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function main() {
  const database = await createDatabase();
  const operatorToken = `op_${randomBytes(24).toString('hex')}`;
  const servers: Running[] = [];
  try {
    const port = await freePort();
    // Request logs (pino at `info`) would be measured too; production sets its own level.
    const svc = await start(process.execPath, ['dist/main.js'], {
      DATABASE_URL: database.url,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SVC_OPERATOR_TOKEN: operatorToken,
      SVC_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-bench-')),
      // The figures measure the server, not the limiter.
      SVC_RATE_LIMIT_PUBLIC: '1000000',
    }, join(ROOT, 'packages/server'), `http://127.0.0.1:${port}`);
    servers.push(svc);
    const ceilings = await start(process.execPath, ['--import', 'tsx', 'bench/src/ceilings.ts'], { DATABASE_URL: database.url });
    servers.push(ceilings);

    const operator = new Api(svc.url, `Bearer ${operatorToken}`);
    const { data } = await operator.call('POST', '/v1/operator/tenants', { name: 'Bench tenant' });
    await operator.call('PATCH', `/v1/operator/tenants/${data.tenant.id}`, { rate_limits: { secret: 100_000, publishable: 100_000 } });
    const ctx: Context = {
      svc,
      api: new Api(svc.url, `Bearer ${data.keys.test.secret}`),
      secretKey: data.keys.test.secret,
      publishableKey: data.keys.test.publishable,
      databaseUrl: database.url,
      tenantId: data.tenant.id,
      connections,
      durationSeconds,
      bigHistory: Number(values['big-history']),
    };

    const load = (url: string, request: Load['request']): Load => ({ url, connections, durationSeconds, request });
    const json = await measure(load(ceilings.url, () => ({ method: 'GET', path: '/json' })), ceilings);
    const write = await measure(load(ceilings.url, () => ({ method: 'POST', path: '/write' })), ceilings);
    const rows: Row[] = [
      { scenario: 'ceiling: bare Express JSON', ...json, ratioToWrite: json.requestsPerSecond / write.requestsPerSecond },
      { scenario: 'ceiling: Express + one UPDATE', ...write, ratioToWrite: 1 },
    ];
    process.stdout.write(`${console_(rows)}\n`);

    const notes: string[] = [];
    const selected = values.only ? SCENARIOS.filter((s) => values.only!.split(',').includes(s.name)) : SCENARIOS;
    for (const scenario of selected) {
      const outcome = await scenario.run(ctx, (request) => measure(load(svc.url, request), svc));
      for (const r of outcome.results) {
        const row: Row = {
          scenario: r.name,
          ...r.result,
          ratioToWrite: r.result.requestsPerSecond / write.requestsPerSecond,
          target: r.target?.label,
          met: r.target ? r.target.met(r.result, r.result.requestsPerSecond / write.requestsPerSecond) : undefined,
        };
        rows.push(row);
        process.stdout.write(`${console_([row])}\n`);
      }
      notes.push(...(outcome.notes ?? []));
    }
    const file = save(rows, { cpus: cpus().length, connections, duration_s: durationSeconds, node: process.version }, notes);
    process.stdout.write(`\nResults: ${file}\nTable: docs/benchmarks.md\n`);
  } finally {
    for (const s of servers.reverse()) await s.stop().catch(() => {});
    await database.drop();
  }
}

export type { Result };
main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
