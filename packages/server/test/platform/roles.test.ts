import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, databaseUrl, dropTestDatabase } from '../databases';
import { ENCRYPTION_KEY, OPERATOR_TOKEN } from '../harness';
import { runServerProcess, type ServerProcess } from '../process';

/** One build, four roles: which migrates, which refuses an unmigrated database, what each one's port answers. */

const name = `svc_test_roles_${randomBytes(4).toString('hex')}`;
let dataDir: string;
const started: ServerProcess[] = [];

function run(env: Record<string, string>, entry: 'main' | 'cli' = 'main', args: string[] = []): ServerProcess {
  const p = runServerProcess(
    { DATABASE_URL: databaseUrl(name), SVC_ENCRYPTION_KEY: ENCRYPTION_KEY, SVC_OPERATOR_TOKEN: OPERATOR_TOKEN, SVC_DATA_DIR: dataDir, ...env },
    entry,
    args,
  );
  started.push(p);
  return p;
}

const getJson = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-roles-'));
  // Empty, not copied from the migrated template.
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
});

afterAll(async () => {
  for (const p of started) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  await dropTestDatabase(name);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('roles', () => {
  it('an api process refuses an unmigrated database, and says to run svc migrate', async () => {
    const api = run({ SVC_ROLE: 'api', SVC_WORKERS: '1' });
    expect(await api.exited).toBe(1);
    expect(api.output()).toMatch(/The database is not migrated: \d+ migration\(s\) pending.*Run `svc migrate`/);
  });

  it('svc migrate is its own step, and a second run has nothing to do', async () => {
    const first = run({}, 'cli', ['migrate']);
    expect(await first.exited).toBe(0);
    expect(first.output()).toMatch(/migrated: [1-9]\d* migration\(s\) run, job queues ready/);
    const again = run({}, 'cli', ['migrate']);
    expect(await again.exited).toBe(0);
    expect(again.output()).toContain('migrated: 0 migration(s) run');
  });

  it("a worker's port answers only the health checks", async () => {
    const worker = run({ SVC_ROLE: 'worker' });
    const url = await worker.url;
    expect(await getJson(`${url}/health/live`)).toMatchObject({ status: 200, body: { status: 'alive', role: 'worker' } });
    expect(await getJson(`${url}/health/ready`)).toMatchObject({ status: 200, body: { status: 'ready', role: 'worker' } });
    expect((await fetch(`${url}/v1/status`)).status).toBe(404);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  });

  it('an api process is not ready while it drains, and still answers until the port closes', async () => {
    const api = run({ SVC_ROLE: 'api', SVC_WORKERS: '1', SVC_DRAIN_DELAY_MS: '3000' });
    const url = await api.url;
    expect(await getJson(`${url}/health/ready`)).toMatchObject({ status: 200, body: { status: 'ready', role: 'api' } });
    expect((await fetch(`${url}/v1/status`)).status).toBe(200);
    api.child.kill('SIGTERM');
    let ready = await getJson(`${url}/health/ready`);
    for (let i = 0; i < 40 && ready.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      ready = await getJson(`${url}/health/ready`);
    }
    expect(ready).toMatchObject({ status: 503, body: { status: 'draining', role: 'api' } });
    expect(await getJson(`${url}/health/live`)).toMatchObject({ status: 200 });
    expect((await fetch(`${url}/v1/status`)).status).toBe(503);
    expect(await api.exited).toBe(0);
  });
});
