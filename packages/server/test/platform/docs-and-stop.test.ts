import net from 'node:net';
import http from 'node:http';
import pg from 'pg';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '@svc/contract';
import { loadConfig } from '../../src/boot/config';
import { startServer } from '../../src/boot/server';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../databases';
import { useTestServer, ENCRYPTION_KEY, OPERATOR_TOKEN } from '../harness';

const t = useTestServer();

describe('GET /docs', () => {
  it('serves the reference page, which loads Swagger UI over /openapi.json', async () => {
    const page = await t.http().get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('src="/docs/assets/swagger-ui-bundle.js"');
    expect(page.text).toContain('src="/docs/init.js"');
    expect(page.text).toContain('href="/docs/assets/swagger-ui.css"');

    const init = await t.http().get('/docs/init.js');
    expect(init.status).toBe(200);
    expect(init.headers['content-type']).toMatch(/javascript/);
    expect(init.text).toContain("'/openapi.json'");
    expect(init.text).toContain('SwaggerUIBundle');
  });

  it('serves the Swagger UI assets it references', async () => {
    const bundle = await t.http().get('/docs/assets/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    expect(bundle.text).toContain('SwaggerUIBundle');
    const css = await t.http().get('/docs/assets/swagger-ui.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  it('lists every catalogue code on /docs/errors with its status and type', async () => {
    const res = await t.http().get('/docs/errors');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect(res.text).toContain(`<tr id="${code}"><td><code>${code}</code></td><td>${entry.status}</td><td><code>${entry.type}</code></td>`);
    }
  });
});

describe('graceful stop', () => {
  /** A request on a fresh connection, so no pooled keep-alive socket hides whether the server still listens. */
  const freshGet = (url: string) =>
    new Promise<number>((resolve, reject) => {
      http.get(url, { agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      }).on('error', reject);
    });

  it('lets an in-flight request finish, refuses new connections, then closes', async () => {
    const name = await createTestDatabase();
    const url = databaseUrl(name);
    const config = loadConfig({
      DATABASE_URL: url,
      SVC_OPERATOR_TOKEN: OPERATOR_TOKEN,
      LOG_LEVEL: 'silent',
      PORT: '0',
      SVC_SHUTDOWN_TIMEOUT_MS: '20000',
    });
    const running = await startServer({ ...config, DATABASE_URL: url, SVC_ENCRYPTION_KEY: ENCRYPTION_KEY }, pino({ level: 'silent' }));
    const locker = new pg.Client({ connectionString: url });
    let lockHeld = false;
    try {
      // The production wiring schedules the purge of idempotency keys.
      const schedules = await running.ctx.jobs.pgBoss.getSchedules();
      expect(schedules.map((s) => s.name)).toContain('purge-idempotency-keys');

      // A request Node cannot parse still gets the error shape.
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(new URL(running.url).port), '127.0.0.1', () => {
          socket.write('POST /v1/keys HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n');
        });
        let text = '';
        socket.on('data', (d) => (text += d.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(raw).toMatch(/^HTTP\/1\.1 400/);
      expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request' });

      const operator = { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' };
      const created = await fetch(`${running.url}/v1/operator/tenants`, { method: 'POST', headers: operator, body: JSON.stringify({ name: 'Before' }) });
      expect(created.status).toBe(201);
      const tenantId = ((await created.json()) as { data: { tenant: { id: string } } }).data.tenant.id;

      // Hold the tenant's row so the PATCH below waits inside the server.
      await locker.connect();
      await locker.query('begin');
      await locker.query('select id from tenants where id = $1 for update', [tenantId]);
      lockHeld = true;
      const slow = fetch(`${running.url}/v1/operator/tenants/${tenantId}`, {
        method: 'PATCH',
        headers: operator,
        body: JSON.stringify({ name: 'Drained' }),
      });
      const deadline = Date.now() + 10_000;
      for (;;) {
        const { rows } = await locker.query(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        );
        if (rows[0].n > 0) break;
        if (Date.now() > deadline) throw new Error('the PATCH never reached the lock');
        await new Promise((r) => setTimeout(r, 20));
      }

      let stopped = false;
      const stopping = running.stop().then(() => {
        stopped = true;
      });
      // The stop goes as far as it can: the listener closes, new connections are refused...
      const closedBy = Date.now() + 10_000;
      while ((await freshGet(`${running.url}/v1/status`).then(() => 'open', (err: Error) => err.message)) === 'open') {
        if (Date.now() > closedBy) throw new Error('the listener never closed');
        await new Promise((r) => setTimeout(r, 20));
      }
      await expect(freshGet(`${running.url}/v1/status`)).rejects.toThrow(/ECONNREFUSED/);
      expect(running.ctx.state.shuttingDown).toBe(true);
      // ...and then it waits for the PATCH, which waits for the lock.
      expect(stopped).toBe(false);

      const releasedAt = Date.now();
      await locker.query('commit');
      lockHeld = false;
      const res = await slow;
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { name: string } }).data.name).toBe('Drained');
      await stopping;
      // Closed once drained: neither held open by the idle keep-alive connection (5 s) nor by the shutdown timeout.
      expect(Date.now() - releasedAt).toBeLessThan(2_000);
    } finally {
      if (lockHeld) await locker.query('rollback').catch(() => {});
      await locker.end().catch(() => {});
      await running.stop();
      await dropTestDatabase(name);
    }
  });
});
