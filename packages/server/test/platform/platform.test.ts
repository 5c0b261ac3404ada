import net from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contract, ERROR_CATALOGUE } from '@svc/contract';
import { loadConfig } from '../../src/boot/config';
import { routesOf } from '../../src/core/unknown-route';
import { servedOutsideContract } from '../kit/served-routes';
import { startServer } from '../../src/boot/server';
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

  it('is OpenAPI 3.1.0 at interface version v1, served from this server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('v1');
    expect(doc.info.title.length).toBeGreaterThan(0);
    expect(doc.servers).toEqual([{ url: t.ctx.config.baseUrl, description: 'This server' }]);
  });

  it('has every route of the contract, and beside them only the routes served outside it', () => {
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) expect(operationOf(route), `${route.method} ${route.path}`).toBeDefined();
    const contractOps = new Set(routes.map((r) => `${r.method} ${openApiPath(r.path)}`));
    const outside = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .filter((op) => !contractOps.has(op));
    // The app's own routes (raw-body callbacks, uploads, pages), named as OpenAPI templates, whatever their parameters are called.
    const shape = (op: string) => op.replace(/\{[^}]+\}/g, '{}');
    const served = servedOutsideContract(t.app).map((r) => shape(`${r.method} ${openApiPath(r.path)}`));
    expect(outside.map(shape).sort()).toEqual([...served, 'GET /docs/assets/{}'].sort());
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

  it('is also served as OpenAPI 3.0.3, with the same operations', async () => {
    const res = await t.http().get('/openapi.3.0.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.0.3');
    expect(Object.keys(res.body.paths)).toEqual(Object.keys(doc.paths));
    expect(res.text).not.toContain('"type":["');
  });

  it('declares the credentials each route takes', () => {
    for (const route of routes) {
      const auth = (route.metadata as { access: { auth: string } }).access.auth;
      const security = operationOf(route)!.security;
      if (auth === 'operator') expect(security, route.path).toEqual([{ operatorToken: [] }]);
      else if (auth === 'public') expect(security, route.path).toEqual([]);
      else expect(security!.length, route.path).toBeGreaterThan(0);
    }
    expect(Object.keys(doc.components.securitySchemes)).toEqual(
      expect.arrayContaining(['secretKey', 'publishableKey', 'customerToken', 'accessToken', 'tenantCode', 'operatorToken']),
    );
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
      const [, section, name] = /^#\/components\/(schemas|parameters|headers)\/([A-Za-z0-9]+)$/.exec(ref) ?? [];
      expect(section, ref).toBeDefined();
      expect((doc.components as Record<string, Record<string, unknown>>)[section!], ref).toHaveProperty(name!);
    }
  });

  it('lists every error code in its description', () => {
    const description = (doc.info as { description?: string }).description ?? '';
    for (const code of Object.keys(ERROR_CATALOGUE)) expect(description).toContain(`\`${code}\``);
  });
});
