import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestServer, OPERATOR_TOKEN, type TestServer } from '../harness';
import { runServerProcess, type ServerProcess } from '../process';

/**
 * Keys are cached for up to 60 seconds in every process; a revoke, roll or tenant change made through one
 * process must reach the others at once. Here the change goes through the in-test app and a second, real
 * server process on the same database must notice it.
 */

/** Far below the 60 s cache lifetime: only an invalidation explains a refusal this soon. */
const PROPAGATION_LIMIT_MS = 2000;

let t: TestServer;
let second: ServerProcess | undefined;
let secondUrl: string;
let dataDir: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function listKeysOnSecond(secret: string) {
  const res = await fetch(`${secondUrl}/v1/keys`, { headers: bearer(secret) });
  return { status: res.status, body: (await res.json()) as { error?: { code: string; type: string } }, headers: res.headers };
}

/** Calls the second process until `done` holds or the limit passes; returns the last answer and when it came. */
async function pollSecond(secret: string, done: (r: Awaited<ReturnType<typeof listKeysOnSecond>>) => boolean) {
  const started = Date.now();
  let res = await listKeysOnSecond(secret);
  while (!done(res) && Date.now() - started < PROPAGATION_LIMIT_MS) {
    await sleep(25);
    res = await listKeysOnSecond(secret);
  }
  return { res, elapsedMs: Date.now() - started };
}

async function createKey(secret: string): Promise<{ id: string; secret: string }> {
  const res = await t.http().post('/v1/keys').set(bearer(secret)).send({ type: 'secret' });
  expect(res.status).toBe(201);
  return res.body.data;
}

let rootSecret: string;
let tenantId: string;

beforeAll(async () => {
  t = await createTestServer();
  // A tenant first, so the second process finds a non-empty database and creates no demo tenant.
  const { tenant, keys } = await t.tenant();
  rootSecret = keys.test.secret;
  tenantId = tenant.id;
  dataDir = mkdtempSync(join(tmpdir(), 'svc-second-process-'));
  second = runServerProcess({ DATABASE_URL: t.databaseUrl, SVC_OPERATOR_TOKEN: OPERATOR_TOKEN, SVC_DATA_DIR: dataDir });
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

describe('a second server process', () => {
  it('shares the database and created no demo tenant', async () => {
    const tenants = await fetch(`${secondUrl}/v1/operator/tenants`, { headers: bearer(OPERATOR_TOKEN) });
    expect(tenants.status).toBe(200);
    expect(((await tenants.json()) as { data: { id: string }[] }).data.map((x) => x.id)).toEqual([tenantId]);
  });

  it('refuses a revoked key at once, though it cached the key', async () => {
    const key = await createKey(rootSecret);
    expect((await listKeysOnSecond(key.secret)).status).toBe(200);

    expect((await t.http().delete(`/v1/keys/${key.id}`).set(bearer(rootSecret))).status).toBe(200);
    const { res, elapsedMs } = await pollSecond(key.secret, (r) => r.status !== 200);
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'api_key_revoked', type: 'authentication_error' });
    expect(elapsedMs).toBeLessThan(PROPAGATION_LIMIT_MS);
  });

  it('refuses a key rolled with expires_in_seconds 0 at once', async () => {
    const key = await createKey(rootSecret);
    expect((await listKeysOnSecond(key.secret)).status).toBe(200);

    const rolled = await t.http().post(`/v1/keys/${key.id}/roll`).set(bearer(rootSecret)).send({ expires_in_seconds: 0 });
    expect(rolled.status).toBe(200);
    const { res, elapsedMs } = await pollSecond(key.secret, (r) => r.status !== 200);
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'api_key_expired', type: 'authentication_error' });
    expect(elapsedMs).toBeLessThan(PROPAGATION_LIMIT_MS);
    expect((await listKeysOnSecond(rolled.body.data.secret)).status).toBe(200);
  });

  it("applies a tenant's new rate limit to its cached keys at once", async () => {
    expect((await listKeysOnSecond(rootSecret)).headers.get('ratelimit-limit')).toBe('100');
    const patch = await t.http().patch(`/v1/operator/tenants/${tenantId}`).set(t.operator).send({ rate_limits: { secret: 9 } });
    expect(patch.status).toBe(200);
    const { res, elapsedMs } = await pollSecond(rootSecret, (r) => r.headers.get('ratelimit-limit') === '9');
    // The count is shared by both processes: the requests already made this second count against the new limit.
    expect([200, 429]).toContain(res.status);
    expect(res.headers.get('ratelimit-limit')).toBe('9');
    expect(elapsedMs).toBeLessThan(PROPAGATION_LIMIT_MS);
  });
});
