import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestServer, ENCRYPTION_KEY, OPERATOR_TOKEN, type TestServer } from '../harness';
import { runServerProcess, type ServerProcess } from '../process';
import { createStream, createTokenKey, expectStatus, grant, server, signToken, tenant } from './access-fixtures';

/**
 * Heartbeats, checks and opens are served from caches (credentials, customer token keys and verified tokens,
 * entitlements, the system signing key, signed links) and their writes are batched. None of that may keep a
 * session alive that the Access rules ended. Here the changes go through the in-test app and the heartbeats
 * through a second, real server process (src/boot/main.ts) on the same database, whose caches are warm: each
 * heartbeat right after the change, with no wait, must be refused.
 */

/** Far below the caches' 60 s lifetime: only an invalidation explains a change this soon. */
const PROPAGATION_LIMIT_MS = 5000;

let t: TestServer;
let second: ServerProcess;
let secondUrl: string;
let dataDir: string;

beforeAll(async () => {
  t = await createTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });
  // A tenant first, so the second process finds a non-empty database and creates no demo tenant.
  await t.tenant('First');
  dataDir = mkdtempSync(join(tmpdir(), 'svc-sessions-second-'));
  second = runServerProcess({
    DATABASE_URL: t.databaseUrl,
    SVC_OPERATOR_TOKEN: OPERATOR_TOKEN,
    // The same key as the in-test app: both open the secrets the other sealed (token keys, signing keys).
    SVC_ENCRYPTION_KEY: ENCRYPTION_KEY,
    SVC_DATA_DIR: dataDir,
    SVC_RATE_LIMIT_PUBLIC: '100000',
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

/** A viewer of one stream with an entitlement (`limits`), a token, and requests on either process. */
async function viewer(limits: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const created = await tenant(t);
  const sk = created.keys.test.secret;
  const pk = created.keys.test.publishable;
  const stream = await createStream(t, sk);
  const token = await signToken(t, await createTokenKey(t, sk));
  const entitlement = await grant(t, sk, { customer: 'viewer-1', resource: { type: 'ls', id: stream.id }, limits, ...extra });
  const onSecond = async (method: string, path: string, body?: object) => {
    const res = await fetch(`${secondUrl}${path}`, {
      method,
      // As the browser SDK sends them: publishable key, customer token, and a new Idempotency-Key per POST.
      headers: { 'svc-publishable-key': pk, authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { data?: any; error?: { code: string; details?: { reason?: string } } } };
  };
  const open = async (device: string) =>
    expectStatus(await server(t, sk).post('/v1/access/sessions', { resource: stream.id, customer: 'viewer-1', device_id: device }), 201).data;
  const heartbeatOnSecond = (id: string) => onSecond('POST', `/v1/access/sessions/${id}/heartbeat`, {});
  /** Heartbeats on the second process until its caches hold everything a heartbeat uses. */
  const warm = async (id: string) => {
    for (let i = 0; i < 3; i++) expect((await heartbeatOnSecond(id)).status).toBe(200);
  };
  return { sk, stream, entitlement, open, heartbeatOnSecond, warm };
}

const expectEnded = (res: { status: number; body: { error?: { code: string; details?: { reason?: string } } } }, reason: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(res.body.error).toMatchObject({ code: 'session_ended', details: { reason } });
};

describe('a second server process with warm caches', () => {
  it('refuses the next heartbeat of a session replaced under replace_oldest on the first', async () => {
    const v = await viewer({ max_concurrent_sessions: 1, concurrency_policy: 'replace_oldest' });
    const first = await v.open('tv');
    await v.warm(first.id);
    await v.open('phone');
    expectEnded(await v.heartbeatOnSecond(first.id), 'replaced_by_newer_session');
  });

  it('refuses the next heartbeat of a session ended with DELETE on the first', async () => {
    const v = await viewer();
    const session = await v.open('tv');
    await v.warm(session.id);
    expect((await server(t, v.sk).delete(`/v1/access/sessions/${session.id}`)).status).toBe(200);
    expectEnded(await v.heartbeatOnSecond(session.id), 'client');
  });

  it('refuses the next heartbeat after the entitlement is revoked on the first, and opens at once', async () => {
    const v = await viewer();
    const session = await v.open('tv');
    await v.warm(session.id);
    // The second process's entitlement cache now says this viewer may watch.
    expect((await v.heartbeatOnSecond(session.id)).status).toBe(200);
    expect((await server(t, v.sk).delete(`/v1/access/entitlements/${v.entitlement.id}`)).status).toBe(200);
    expectEnded(await v.heartbeatOnSecond(session.id), 'entitlement_inactive');
    // Opening decides under the entitlement's row lock, whatever the cache still holds.
    const opened = await fetch(`${secondUrl}/v1/access/sessions`, {
      method: 'POST',
      headers: { ...bearer(v.sk), 'content-type': 'application/json' },
      body: JSON.stringify({ resource: v.stream.id, customer: 'viewer-1', device_id: 'laptop' }),
    });
    expect(opened.status).toBe(403);
    expect(((await opened.json()) as { error: { details: { reason: string } } }).error.details.reason).toBe('revoked');
    // A check reads the cache; the revocation's notification clears it, far sooner than the entry's 60 s.
    const check = async () => {
      const res = await fetch(`${secondUrl}/v1/access/check`, {
        method: 'POST',
        headers: { ...bearer(v.sk), 'content-type': 'application/json' },
        body: JSON.stringify({ customer: 'viewer-1', resource: { type: 'ls', id: v.stream.id } }),
      });
      return ((await res.json()) as { data: { allowed: boolean; reason: string | null } }).data;
    };
    const until = Date.now() + PROPAGATION_LIMIT_MS;
    let answer = await check();
    while (answer.allowed && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 25));
      answer = await check();
    }
    expect(answer).toMatchObject({ allowed: false, reason: 'revoked' });
  });

  it('refuses the next heartbeat after the entitlement is suspended on the first', async () => {
    const v = await viewer();
    const session = await v.open('tv');
    await v.warm(session.id);
    expect((await server(t, v.sk).post(`/v1/access/entitlements/${v.entitlement.id}/suspend`)).status).toBe(200);
    expectEnded(await v.heartbeatOnSecond(session.id), 'entitlement_inactive');
  });

  it('refuses the first heartbeat after the entitlement expired, though no sweep ran', async () => {
    const v = await viewer({}, { ends_at: new Date(Date.now() + 3600_000).toISOString() });
    const session = await v.open('tv');
    await v.warm(session.id);
    // The second process's clock is the wall clock, and a busy machine can take seconds to set up: the end passes
    // as time would make it pass, in the row alone (still `active`), with no event or notice a cache would hear.
    await sql`update entitlements set ends_at = now() - interval '1 second' where id = ${v.entitlement.id}`.execute(t.ctx.db);
    expectEnded(await v.heartbeatOnSecond(session.id), 'entitlement_inactive');
  });

  it('lets a viewer granted on the first open and check on the second at once', async () => {
    const v = await viewer();
    // The second process caches this customer's entitlements to the stream with the first entitlement only.
    const before = await fetch(`${secondUrl}/v1/access/check`, {
      method: 'POST',
      headers: { ...bearer(v.sk), 'content-type': 'application/json' },
      body: JSON.stringify({ customer: 'viewer-2', resource: { type: 'ls', id: v.stream.id } }),
    });
    expect(((await before.json()) as { data: { allowed: boolean } }).data.allowed).toBe(false);
    await grant(t, v.sk, { customer: 'viewer-2', resource: { type: 'ls', id: v.stream.id } });
    const after = await fetch(`${secondUrl}/v1/access/check`, {
      method: 'POST',
      headers: { ...bearer(v.sk), 'content-type': 'application/json' },
      body: JSON.stringify({ customer: 'viewer-2', resource: { type: 'ls', id: v.stream.id } }),
    });
    expect(((await after.json()) as { data: { allowed: boolean } }).data).toMatchObject({ allowed: true, reason: null });
  });
});
