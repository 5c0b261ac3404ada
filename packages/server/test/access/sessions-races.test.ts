import request from 'supertest';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { CredentialCache } from '../../src/core/auth/credential-cache';
import { CustomerTokenKeyCache } from '../../src/core/auth/customer-token-keys';
import { NotificationListener } from '../../src/core/notify';
import { EntitlementCache } from '../../src/modules/access/entitlements/entitlement-cache';
import { entitlementCachePart } from '../../src/modules/access';
import { createDatabase, type Database } from '../../src/db/database';
import { bearer, type TestServer } from '../harness';
import { activeSessions, useAccessTestServer, entitled, expectStatus, sessionRow } from './access-fixtures';

/**
 * Limits hold under concurrency because opening takes the entitlement's row lock (SELECT … FOR UPDATE) before
 * counting, on every process. Half of the racing requests go through a second app with its own connection
 * pool and caches, standing in for another server process on the same database.
 */

const t = useAccessTestServer();
let otherApp: Express;
let otherDb: Database;
let listener: NotificationListener;
beforeAll(async () => {
  listener = new NotificationListener(t.databaseUrl, t.ctx.log);
  ({ db: otherDb } = createDatabase(t.databaseUrl, 5));
  const other = {
    ...t.ctx,
    db: otherDb,
    credentials: new CredentialCache(listener),
    customerTokenKeys: new CustomerTokenKeyCache(listener),
    parts: new Map(t.ctx.parts),
  };
  entitlementCachePart.set(other, new EntitlementCache(listener));
  otherApp = createApp(other);
  await listener.start();
});
afterAll(async () => {
  await listener.stop();
  await otherDb.destroy();
});

const statuses = (results: request.Response[]) => results.map((r) => r.status).sort();

/** Opens for several devices at once, alternating between the two apps. */
async function race(sk: string, streamId: string, devices: string[]) {
  return Promise.all(
    devices.map((device, i) =>
      request(i % 2 === 0 ? t.app : otherApp)
        .post('/v1/access/sessions')
        .set(bearer(sk))
        .send({ resource: streamId, customer: 'viewer-1', device_id: device }),
    ),
  );
}

const devices = (n: number, prefix = 'd') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('races', () => {
  it('opens racing for the last concurrent slot under reject_new: exactly one wins', async () => {
    for (let round = 0; round < 3; round++) {
      const e = await entitled(t, { max_concurrent_sessions: 1, concurrency_policy: 'reject_new' });
      const results = await race(e.sk, e.stream.id, devices(6));
      expect(statuses(results)).toEqual([201, 409, 409, 409, 409, 409]);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('concurrency_limit_reached');
      expect(await activeSessions(t, e.entitlement.id)).toHaveLength(1);
    }
  });

  it('opens racing for the last device slot: exactly one new device gets it', async () => {
    const e = await entitled(t, { max_devices: 2 });
    expectStatus(await e.openFor('first'), 201);
    const results = await race(e.sk, e.stream.id, devices(6, 'new'));
    expect(statuses(results)).toEqual([201, 403, 403, 403, 403, 403]);
    for (const r of results.filter((x) => x.status === 403)) expect(r.body.error.code).toBe('device_limit_reached');
    const used = await t.ctx.db
      .selectFrom('access_sessions')
      .select('device_id')
      .distinct()
      .where('entitlement_id', '=', e.entitlement.id)
      .execute();
    expect(used).toHaveLength(2);
  });

  it('opens racing for the last views: never more sessions than max_views', async () => {
    const e = await entitled(t, { max_views: 3 });
    const results = await race(e.sk, e.stream.id, devices(8));
    expect(statuses(results)).toEqual([201, 201, 201, 403, 403, 403, 403, 403]);
    const row = await t.ctx.db.selectFrom('entitlements').select('views_used').where('id', '=', e.entitlement.id).executeTakeFirstOrThrow();
    expect(row.views_used).toBe(3);
  });

  it('replace_oldest under concurrency: every open succeeds and never more than the limit stay active', async () => {
    const e = await entitled(t, { max_concurrent_sessions: 2, concurrency_policy: 'replace_oldest' });
    const results = await race(e.sk, e.stream.id, devices(8));
    expect(statuses(results)).toEqual(Array(8).fill(201));
    expect(await activeSessions(t, e.entitlement.id)).toHaveLength(2);
    const ended = await t.ctx.db
      .selectFrom('access_sessions')
      .select('ended_reason')
      .where('entitlement_id', '=', e.entitlement.id)
      .where('state', '=', 'ended')
      .execute();
    expect(ended.map((r) => r.ended_reason)).toEqual(Array(6).fill('replaced_by_newer_session'));
  });

  it('the same device opening several times at once keeps one session', async () => {
    const e = await entitled(t, { max_concurrent_sessions: 1, concurrency_policy: 'reject_new', max_views: 1 });
    const results = await race(e.sk, e.stream.id, Array(5).fill('tv'));
    expect(statuses(results)).toEqual(Array(5).fill(201));
    expect(await activeSessions(t, e.entitlement.id)).toEqual(['tv']);
  });

  it('two heartbeats at once, on two processes, both succeed', async () => {
    const e = await entitled(t);
    const opened = expectStatus(await e.openFor('d'), 201).data;
    const beats = await Promise.all(
      Array.from({ length: 6 }, (_, i) => request(i % 2 === 0 ? t.app : otherApp).post(`/v1/access/sessions/${opened.id}/heartbeat`).set(bearer(e.sk))),
    );
    expect(statuses(beats)).toEqual(Array(6).fill(200));
    expect((await sessionRow(t, opened.id)).state).toBe('active');
  });

  it('a heartbeat racing a replacement never revives the replaced session', async () => {
    const e = await entitled(t, { max_concurrent_sessions: 1, concurrency_policy: 'replace_oldest' });
    const first = expectStatus(await e.openFor('a'), 201).data;
    const [opened, ...beats] = await Promise.all([
      request(otherApp).post('/v1/access/sessions').set(bearer(e.sk)).send({ resource: e.stream.id, customer: 'viewer-1', device_id: 'b' }),
      ...Array.from({ length: 4 }, () => e.heartbeat(first.id)),
    ]);
    expect(opened!.status).toBe(201);
    for (const b of beats) expect([200, 403]).toContain(b.status);
    expect(await sessionRow(t, first.id)).toMatchObject({ state: 'ended', ended_reason: 'replaced_by_newer_session' });
    expect((await e.heartbeat(first.id)).body.error.details.reason).toBe('replaced_by_newer_session');
    expect(await activeSessions(t, e.entitlement.id)).toEqual(['b']);
  });

  it('browsers racing for the last slot: exactly one wins', async () => {
    const e = await entitled(t, { max_concurrent_sessions: 1, concurrency_policy: 'reject_new' });
    const results = await Promise.all(
      devices(4).map((device, i) =>
        request(i % 2 === 0 ? t.app : otherApp)
          .post('/v1/access/sessions')
          .set('Svc-Publishable-Key', e.pk)
          .set(bearer(e.token))
          .send({ resource: e.stream.id, device_id: device }),
      ),
    );
    expect(statuses(results)).toEqual([201, 409, 409, 409]);
  });
});
