import net from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contract, ERROR_CATALOGUE } from '@svc/contract';
import { loadConfig } from '../../src/config';
import { routesOf } from '../../src/core/unknown-route';
import { startServer } from '../../src/server';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../databases';
import { useTestServer, ENCRYPTION_KEY, OPERATOR_TOKEN, type TestServer } from '../harness';

const t = useTestServer();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-build-info-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('GET /build-info', () => {
  const saved = process.env.SVC_BUILD_INFO_FILE;
  afterEach(() => {
    if (saved === undefined) delete process.env.SVC_BUILD_INFO_FILE;
    else process.env.SVC_BUILD_INFO_FILE = saved;
  });

  it('answers commit, build_date and version as strings', async () => {
    const res = await t.http().get('/build-info');
    expect(res.status).toBe(200);
    for (const field of ['commit', 'build_date', 'version']) {
      expect(typeof res.body[field]).toBe('string');
      expect(res.body[field].length).toBeGreaterThan(0);
    }
  });

  it('answers the values of the build information file', async () => {
    const file = join(dir, 'build-info.json');
    await writeFile(file, JSON.stringify({ commit: 'abc123', build_date: '2026-11-01T00:00:00.000Z', version: '1.2.3' }));
    process.env.SVC_BUILD_INFO_FILE = file;
    const res = await t.http().get('/build-info');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ commit: 'abc123', build_date: '2026-11-01T00:00:00.000Z', version: '1.2.3' });
  });

  it('answers unknown for each field, with error, when the file is missing', async () => {
    process.env.SVC_BUILD_INFO_FILE = join(dir, 'no-such-file.json');
    const res = await t.http().get('/build-info');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ commit: 'unknown', build_date: 'unknown', version: 'unknown' });
    expect(typeof res.body.error).toBe('string');
    expect(res.body.error.length).toBeGreaterThan(0);
  });

  it('answers unknown, with error, when the file is not JSON or lacks a field', async () => {
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{ not json');
    const partial = join(dir, 'partial.json');
    await writeFile(partial, JSON.stringify({ commit: 'abc123', version: '1.2.3' }));
    for (const file of [broken, partial]) {
      process.env.SVC_BUILD_INFO_FILE = file;
      const res = await t.http().get('/build-info');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ commit: 'unknown', build_date: 'unknown', version: 'unknown', error: expect.any(String) });
    }
  });
});

describe('GET /v1/status', () => {
  it('answers ok without credentials', async () => {
    const res = await t.http().get('/v1/status');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers 503 service_unavailable while shutting down', async () => {
    t.ctx.state.shuttingDown = true;
    try {
      const res = await t.http().get('/v1/status');
      expect(res.status).toBe(503);
      expect(res.body.error).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
      expect(res.body.error.request_id).toBe(res.headers['request-id']);
    } finally {
      t.ctx.state.shuttingDown = false;
    }
    expect((await t.http().get('/v1/status')).status).toBe(200);
  });
});

describe('GET /openapi.json', () => {
  type Operation = {
    operationId: string;
    summary?: string;
    description?: string;
    security?: Array<Record<string, string[]>>;
    responses: Record<string, { content?: { 'application/json'?: { schema?: { $ref?: string } } } }>;
  };
  type Document = {
    openapi: string;
    info: { version: string; title: string };
    servers: Array<{ url: string }>;
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  };
  let doc: Document;
  let text: string;
  const routes = routesOf(contract);
  const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');
  const operationOf = (route: (typeof routes)[number]) => doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];

  beforeAll(async () => {
    const res = await t.http().get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.body as Document;
    text = res.text;
  });

  it('is OpenAPI 3 at interface version v1, served from this server', () => {
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info.version).toBe('v1');
    expect(doc.info.title.length).toBeGreaterThan(0);
    expect(doc.servers).toEqual([{ url: t.ctx.config.baseUrl }]);
  });

  it('has every route of the contract, and nothing else', () => {
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) expect(operationOf(route), `${route.method} ${route.path}`).toBeDefined();
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(routes.map((r) => `${r.method} ${openApiPath(r.path)}`).sort());
  });

  it('gives every operation a unique id, a summary and a description', () => {
    const ids = routes.map((r) => operationOf(r)!.operationId);
    expect(new Set(ids).size).toBe(routes.length);
    for (const route of routes) {
      const op = operationOf(route)!;
      expect(op.summary, route.path).toBeTruthy();
      expect(op.description, route.path).toBeTruthy();
    }
  });

  it('lists every error status of every route, each referencing the Error schema', () => {
    for (const route of routes) {
      const op = operationOf(route)!;
      const declared = Object.keys(route.responses).filter((s) => Number(s) >= 400);
      expect(declared.length, `${route.method} ${route.path}`).toBeGreaterThan(0);
      expect(Object.keys(op.responses).filter((s) => Number(s) >= 400).sort()).toEqual(declared.sort());
      for (const status of declared) {
        expect(op.responses[status]!.content?.['application/json']?.schema?.$ref, `${route.path} ${status}`).toBe('#/components/schemas/Error');
      }
      // Every route can be rate limited and can fail.
      expect(declared).toEqual(expect.arrayContaining(['429', '500']));
    }
  });

  it('declares the credential each route needs', () => {
    for (const route of routes) {
      const auth = (route.metadata as { access: { auth: string } }).access.auth;
      const expected = auth === 'operator' ? [{ operatorToken: [] }] : auth === 'tenant' ? [{ apiKey: [] }] : [];
      expect(operationOf(route)!.security, route.path).toEqual(expected);
    }
    expect(Object.keys(doc.components.securitySchemes)).toEqual(expect.arrayContaining(['apiKey', 'operatorToken', 'publishableKey']));
  });

  it('has Error and ApiKey components, and every reference resolves to a component', () => {
    expect(doc.components.schemas).toHaveProperty('Error');
    expect(doc.components.schemas).toHaveProperty('ApiKey');
    expect(doc.components.schemas.Error).toMatchObject({ type: 'object', properties: { error: expect.any(Object) } });
    expect(text).not.toContain('#/definitions');
    expect(text).not.toContain('#/$defs');
    const refs = [...text.matchAll(/"\$ref":"([^"]*)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      expect(ref).toMatch(/^#\/components\/schemas\/[A-Za-z]+$/);
      expect(doc.components.schemas, ref).toHaveProperty(ref.split('/').at(-1)!);
    }
  });

  it('lists every error code in its description', () => {
    const description = (doc.info as { description?: string }).description ?? '';
    for (const code of Object.keys(ERROR_CATALOGUE)) expect(description).toContain(`\`${code}\``);
  });
});

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
      await new Promise((r) => setTimeout(r, 300));
      expect(stopped).toBe(false);
      expect(running.ctx.state.shuttingDown).toBe(true);
      await expect(freshGet(`${running.url}/v1/status`)).rejects.toThrow(/ECONNREFUSED/);

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
