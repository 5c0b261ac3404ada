import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestServer, ENCRYPTION_KEY, OPERATOR_TOKEN, type TestServer } from '../harness';
import { advance, expectOk, newPhone, signInByPhone, type Tenant } from './identity-fixtures';

/**
 * Sessions and member roles are cached for up to 60 seconds in every process; a logout or a role change made
 * through one process must reach a second, real server process (src/main.ts) on the same database at once.
 */

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const PROPAGATION_LIMIT_MS = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: TestServer;
let child: ChildProcess | undefined;
let exited: Promise<unknown>;
let secondUrl: string;
let dataDir: string;
let tenant: Tenant;

function startSecondProcess(databaseUrl: string, baseUrl: string) {
  const proc = spawn('npx', ['tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      // The same issuer as the in-test app, so tokens of one process are valid on the other.
      PUBLIC_BASE_URL: baseUrl,
      SVC_OPERATOR_TOKEN: OPERATOR_TOKEN,
      SVC_ENCRYPTION_KEY: ENCRYPTION_KEY,
      LOG_LEVEL: 'info',
      SVC_DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  exited = new Promise((resolve) => proc.once('exit', resolve));
  let stderr = '';
  proc.stderr!.on('data', (chunk) => (stderr += chunk));
  const url = new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number; url?: string };
        if (entry.msg === 'listening' && entry.url) resolve(entry.url);
      } catch {
        // npx's own output
      }
    });
    void exited.then((code) => reject(new Error(`second server exited (${String(code)}):\n${stderr}`)));
  });
  child = proc;
  return url;
}

function groupAlive(pgid: number) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  t = await createTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });
  tenant = await t.tenant();
  dataDir = mkdtempSync(join(tmpdir(), 'svc-identity-second-'));
  secondUrl = await startSecondProcess(t.databaseUrl, t.ctx.config.baseUrl);
});

afterAll(async () => {
  if (child?.pid && groupAlive(child.pid)) {
    process.kill(-child.pid, 'SIGTERM');
    await exited;
    const deadline = Date.now() + 15_000;
    while (groupAlive(child.pid) && Date.now() < deadline) await sleep(50);
    if (groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await t?.close();
});

async function onSecond(path: string, token: string) {
  const res = await fetch(`${secondUrl}${path}`, { headers: { ...bearer(token), 'X-Tenant-Code': tenant.tenant.code } });
  return { status: res.status, body: (await res.json()) as { error?: { code: string } } };
}

async function pollSecond(path: string, token: string, done: (status: number) => boolean) {
  const started = Date.now();
  let res = await onSecond(path, token);
  while (!done(res.status) && Date.now() - started < PROPAGATION_LIMIT_MS) {
    await sleep(25);
    res = await onSecond(path, token);
  }
  return { res, elapsedMs: Date.now() - started };
}

describe('a second server process', () => {
  it('refuses an access token at once after logout, though it cached the session', async () => {
    const session = await signInByPhone(t, tenant);
    expect((await onSecond('/auth/v1/user', session.access_token)).status).toBe(200);
    expect((await t.http().post('/auth/v1/logout').set(bearer(session.access_token)).send({})).status).toBe(204);
    const { res, elapsedMs } = await pollSecond('/auth/v1/user', session.access_token, (s) => s !== 200);
    expect(res.status).toBe(401);
    expect(res.body.error?.code).toBe('invalid_access_token');
    expect(elapsedMs).toBeLessThan(PROPAGATION_LIMIT_MS);
  });

  it('applies a member change at once, though it cached the permissions', async () => {
    const phone = newPhone();
    const member = expectOk(await t.http().post('/v1/members').set(bearer(tenant.keys.test.secret)).send({ phone, role: 'admin' }), 201).data;
    advance(t, 61_000);
    const session = await signInByPhone(t, tenant, phone);
    expect((await onSecond('/v1/members', session.access_token)).status).toBe(200);
    expectOk(await t.http().delete(`/v1/members/${member.id}`).set(bearer(tenant.keys.test.secret)));
    const { res, elapsedMs } = await pollSecond('/v1/members', session.access_token, (s) => s !== 200);
    expect(res.status).toBe(403);
    expect(res.body.error?.code).toBe('missing_permission');
    expect(elapsedMs).toBeLessThan(PROPAGATION_LIMIT_MS);
  });
});
