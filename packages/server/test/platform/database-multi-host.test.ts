import pg from 'pg';
import pino from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/boot/config';
import { createContext } from '../../src/boot/context';
import type { AppContext } from '../../src/core/context';
import type { NotificationListener } from '../../src/core/notify';
import { pgConnection } from '../../src/db/session-target';
import { createTenant } from '../../src/modules/platform';
import { ADMIN_URL, createTestDatabase, dropTestDatabase } from '../databases';
import { ENCRYPTION_KEY, OPERATOR_TOKEN } from '../harness';
import { freePort } from '../kit/free-port';
import { startPgRoleProxy, type PgRoleProxy } from '../kit/pg-role-proxy';

/**
 * A multi-host `DATABASE_URL` with `target_session_attrs=read-write` (docs/self-hosting.md, Failover): the server
 * skips a host that does not answer and one whose sessions are read-only, and after the roles switch (the primary
 * demoted, the standby promoted) its pool, its job queue and its LISTEN connection reconnect to the new primary.
 * Two proxies in front of the test database play the nodes (`kit/pg-role-proxy.ts`).
 */
const QUEUE = 'multi_host_check';
let name: string;
let node1: PgRoleProxy;
let node2: PgRoleProxy;
let ctx: AppContext;
let listener: NotificationListener;
let api: () => ReturnType<typeof request>;
let key: string;

const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
};
const write = () => api().post('/v1/streams/live_streams').set('authorization', `Bearer ${key}`).send({});

beforeAll(async () => {
  name = await createTestDatabase();
  const admin = new URL(ADMIN_URL);
  const target = { host: admin.hostname, port: Number(admin.port || 5432) };
  [node1, node2] = await Promise.all([startPgRoleProxy(target, 'primary'), startPgRoleProxy(target, 'standby')]);
  const gone = await freePort();
  const user = admin.username || 'postgres';
  // The first host answers nothing, the second is read-only: the server must settle on the third.
  const url = `postgres://${user}@127.0.0.1:${gone},127.0.0.1:${node2.port},127.0.0.1:${node1.port}/${name}?target_session_attrs=read-write`;
  const config = loadConfig({ DATABASE_URL: url, SVC_OPERATOR_TOKEN: OPERATOR_TOKEN, SVC_ENCRYPTION_KEY: ENCRYPTION_KEY, LOG_LEVEL: 'silent' });
  ({ ctx, listener } = await createContext({ ...config, DATABASE_URL: url, SVC_ENCRYPTION_KEY: ENCRYPTION_KEY }, pino({ level: 'silent' }), 4, undefined, ['api']));
  await ctx.jobs.start();
  await ctx.jobs.pgBoss.createQueue(QUEUE);
  const app = createApp(ctx);
  api = () => request(app);
  key = (await createTenant(ctx.db, { name: 'Multi-host' })).keys.test.secret;
});

afterAll(async () => {
  await ctx?.jobs.stop();
  await listener?.stop();
  await ctx?.db.destroy();
  await node1?.stop();
  await node2?.stop();
  if (name) await dropTestDatabase(name);
});

describe('a multi-host DATABASE_URL with target_session_attrs=read-write', () => {
  it('writes through the host that takes writes, and after a failover through the promoted one', async () => {
    for (let i = 0; i < 3; i++) expect((await write()).status).toBe(201);
    expect(await ctx.jobs.pgBoss.send(QUEUE, { at: 'before' })).toBeTruthy();
    const heard: string[] = [];
    listener.on('multi_host_check', (p) => heard.push(p));
    // The probe of the read-only host was closed; every session is on the writable one.
    await until('the probe of the standby closed', () => node2.open() === 0);
    expect(node1.open()).toBeGreaterThan(0);

    // The failover: node1 is demoted (its sessions cut, new ones read-only), node2 promoted.
    node1.become('standby');
    node2.become('primary');
    // A request on a connection cut mid-way may fail once; the next ones reach node2.
    await until('a write after the failover', async () => (await write()).status === 201);
    for (let i = 0; i < 5; i++) expect((await write()).status).toBe(201);
    expect(await ctx.jobs.pgBoss.send(QUEUE, { at: 'after' })).toBeTruthy();
    // The LISTEN connection came back too (through node2), so caches hear of changes again.
    await until('a notification after the failover', async () => {
      await ctx.db.selectNoFrom((eb) => eb.fn('pg_notify', [eb.val('multi_host_check'), eb.val('after')]).as('n')).execute();
      return heard.includes('after');
    });
    expect(node2.open()).toBeGreaterThan(0);
    expect(node1.open()).toBe(0);

    // node1 comes back as the primary and node2 goes down: the server follows again.
    node2.become('down');
    node1.become('primary');
    await until('a write after the second failover', async () => (await write()).status === 201);
    expect((await write()).status).toBe(201);
    expect(node1.open()).toBeGreaterThan(0);
  });

  it('fails a connection when no host takes writes, naming each host and why', async () => {
    const gone = await freePort();
    const url = `postgres://postgres@127.0.0.1:${gone},127.0.0.1:${node2.port}/${name}?target_session_attrs=read-write`;
    node2.become('standby');
    const pool = new pg.Pool({ ...pgConnection(url), max: 1 });
    await expect(pool.query('select 1')).rejects.toThrow(new RegExp(`no database host accepts read-write sessions now \\(127.0.0.1:${gone}: .*; 127.0.0.1:${node2.port} is read-only\\)`));
    await pool.end();
  });
});
