import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestServer, ENCRYPTION_KEY, OPERATOR_TOKEN, type TestServer } from '../harness';
import { runServerProcess, type ServerProcess } from '../process';
import { advance, expectOk, newPhone, signInByPhone, type Tenant } from './identity-fixtures';

/**
 * Sessions and member roles are cached for up to 60 seconds in every process; a logout or a role change made
 * through one process must reach a second, real server process on the same database at once.
 */

const PROPAGATION_LIMIT_MS = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: TestServer;
let second: ServerProcess | undefined;
let secondUrl: string;
let dataDir: string;
let tenant: Tenant;

beforeAll(async () => {
  t = await createTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });
  tenant = await t.tenant();
  dataDir = mkdtempSync(join(tmpdir(), 'svc-identity-second-'));
  second = runServerProcess({
    DATABASE_URL: t.databaseUrl,
    // The same issuer as the in-test app, so tokens of one process are valid on the other.
    PUBLIC_BASE_URL: t.ctx.config.baseUrl,
    SVC_OPERATOR_TOKEN: OPERATOR_TOKEN,
    SVC_ENCRYPTION_KEY: ENCRYPTION_KEY,
    SVC_DATA_DIR: dataDir,
  });
  secondUrl = await second.url;
});

afterAll(async () => {
  if (second) {
    second.child.kill('SIGTERM');
    await second.exited;
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
