import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haproxyInstalled, startPrimaryProxy, type RunningHaproxy } from '../kit/haproxy';
import { pgAutoFailoverInstalled, startFormation, type Formation } from '../kit/pg-auto-failover';
import { runServerProcess, type ServerProcess } from '../process';

/**
 * PostgreSQL with automatic failover (docs/self-hosting.md, Failover): pg_auto_failover runs a monitor, a primary
 * and its synchronous standby; HAProxy leads the server's connections to whichever node takes writes. Killing
 * the primary's whole node with SIGKILL must cost no acknowledged write, and the server must stay up. Failover
 * takes about 50 s with pg_auto_failover's defaults: 20 s before the node counts as unhealthy, then 30 s
 * (primary_demote_timeout) before the standby, promoted, takes writes, since the old primary cannot say it stopped.
 */
// The test command installs both (scripts/test-suites.mjs, suite `failover`); SVC_TEST_SKIP=failover leaves this file out.
if (!pgAutoFailoverInstalled() || !haproxyInstalled()) throw new Error('pg_auto_failover and haproxy are missing: apt-get install -y postgresql-15-auto-failover haproxy');

const OPERATOR = `op_${randomBytes(24).toString('hex')}`;
const DATABASE = 'svc_failover';
const WRITERS = 4;
/** How long the test waits for writes to come back after the kill; failover needs about 50 s. */
const FAILOVER_BOUND_MS = 120_000;
/** `url`: the server follows the primary itself, through the multi-host URL `pg_autoctl show uri` prints, not HAProxy. */
const VIA = process.env.SVC_TEST_FAILOVER_VIA === 'url' ? 'url' : 'haproxy';

let formation: Formation;
let proxy: RunningHaproxy;
let server: ServerProcess;
let dataDir: string;

beforeAll(async () => {
  formation = await startFormation();
  const primary = formation.nodes.find((n) => n.name === 'node1')!;
  const admin = new pg.Client({ host: '127.0.0.1', port: primary.port, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  proxy = await startPrimaryProxy(formation.nodes);
  dataDir = mkdtempSync(join(tmpdir(), 'svc-failover-'));
  const hosts = formation.nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
  server = runServerProcess({
    DATABASE_URL:
      VIA === 'url'
        ? `postgres://postgres@${hosts}/${DATABASE}?target_session_attrs=read-write`
        : `postgres://postgres@127.0.0.1:${proxy.port}/${DATABASE}`,
    SVC_OPERATOR_TOKEN: OPERATOR,
    SVC_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    SVC_DATA_DIR: dataDir,
    SVC_RATE_LIMIT_PUBLIC: '100000',
  });
  await server.url;
}, 240_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await proxy?.stop();
  await formation?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe(`PostgreSQL failover (pg_auto_failover, ${VIA === 'url' ? 'a multi-host DATABASE_URL' : 'HAProxy'})`, () => {
  it('loses no acknowledged write when the primary is killed, and the server stays up and writes to the promoted standby', async () => {
    const url = await server.url;
    const made = await fetch(`${url}/v1/operator/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Failover' }),
    });
    expect(made.status).toBe(201);
    const key = ((await made.json()) as { data: { keys: { test: { secret: string } } } }).data.keys.test.secret;

    const t0 = Date.now();
    /** Acknowledged writes: when each request was sent and when its 201 came. */
    const acked: { id: string; sent: number; at: number }[] = [];
    let failed = 0;
    const failures = new Map<string, number>();
    let downAnswers = 0;
    let statusChecks = 0;
    let stop = false;
    const writer = async () => {
      while (!stop) {
        const sent = Date.now();
        try {
          const res = await fetch(`${url}/v1/streams/live_streams`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: '{}',
            signal: AbortSignal.timeout(15_000),
          });
          if (res.status === 201) acked.push({ id: ((await res.json()) as { data: { id: string } }).data.id, sent, at: Date.now() });
          else {
            failed++;
            failures.set(String(res.status), (failures.get(String(res.status)) ?? 0) + 1);
            await res.arrayBuffer();
            await new Promise((r) => setTimeout(r, 100));
          }
        } catch (err) {
          failed++;
          const kind = (err as Error).name;
          failures.set(kind, (failures.get(kind) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };
    // The server answers throughout: a status request that gets no HTTP answer at all means it is down.
    const watcher = async () => {
      while (!stop) {
        statusChecks++;
        await fetch(`${url}/v1/status`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.arrayBuffer(), () => downAnswers++);
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    const load = [...Array.from({ length: WRITERS }, writer), watcher()];

    while (acked.length < 50) await new Promise((r) => setTimeout(r, 100));
    const killedAt = Date.now();
    const ackedBefore = acked.length;
    formation.kill('node1');
    // Writes come back once node2 is promoted and HAProxy's check finds it writable (a write sent before the kill
    // may still be acknowledged just after it); then a few more seconds of load.
    const resumed = () => acked.find((a) => a.sent > killedAt)?.at;
    while (!resumed() && Date.now() - killedAt < FAILOVER_BOUND_MS) await new Promise((r) => setTimeout(r, 200));
    const resumedAt = resumed();
    if (resumedAt) await new Promise((r) => setTimeout(r, 3_000));
    stop = true;
    await Promise.all(load);
    const why = () => `${JSON.stringify(await0.states)} failures ${JSON.stringify([...failures])}\n${proxy.output()}\n${server.output().split('\n').slice(-40).join('\n')}`;
    const await0 = { states: await formation.states() };
    expect(resumedAt, `writes did not come back within ${FAILOVER_BOUND_MS / 1000} s: ${why()}`).toBeDefined();
    // Every acknowledged write is on the promoted standby, read directly rather than through HAProxy.
    const states = await formation.states();
    expect(states.node2).toMatch(/^(wait_primary|primary)$/);
    const promoted = formation.nodes.find((n) => n.name === 'node2')!;
    const check = new pg.Client({ host: '127.0.0.1', port: promoted.port, user: 'postgres', database: DATABASE });
    await check.connect();
    const { rows } = await check.query<{ id: string }>('SELECT id FROM live_streams WHERE id = ANY($1)', [acked.map((a) => a.id)]);
    await check.end();
    const found = new Set(rows.map((r) => r.id));
    const lost = acked.filter((a) => !found.has(a.id)).length;
    let gap = 0;
    for (let i = 1; i < acked.length; i++) gap = Math.max(gap, acked[i]!.at - acked[i - 1]!.at);

    console.log(
      `failover via ${VIA}: ${acked.length} writes acknowledged (${ackedBefore} before the kill), ${lost} lost, ` +
        `${(gap / 1000).toFixed(1)} s without writes; ${failed} writes refused or cut meanwhile; ` +
        `primary killed at +${((killedAt - t0) / 1000).toFixed(1)} s, first write on the promoted standby ${((resumedAt! - killedAt) / 1000).toFixed(1)} s later; ` +
        `server answered ${statusChecks - downAnswers}/${statusChecks} status checks`,
    );
    expect(lost).toBe(0);
    expect(acked.length).toBeGreaterThan(ackedBefore);
    expect(downAnswers).toBe(0);
    expect(server.child.exitCode).toBeNull();
  }, 240_000);
});
