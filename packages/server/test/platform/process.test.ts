import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../databases';
import { OPERATOR_TOKEN } from '../harness';
import { freePort } from '../kit/free-port';
import { runServerProcess } from '../process';

const ENCRYPTION_KEY = Buffer.alloc(32, 3).toString('base64');

describe('the server process on an embedded PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-embedded-'));
  const env = { SVC_DATA_DIR: dataDir, SVC_EMBEDDED_PG_PORT: '', DATABASE_URL: '' };
  beforeAll(async () => {
    env.SVC_EMBEDDED_PG_PORT = String(await freePort());
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts with no database configured, prints the demo tenant once, and recovers after SIGKILL', async () => {
    const first = runServerProcess(env);
    const url = await first.url;
    await expect.poll(() => first.output(), { timeout: 10_000 }).toContain('Test secret key');
    const secret = /Test secret key\s+(sk_test_\w+)/.exec(first.output())![1]!;
    expect(first.output()).toMatch(/Test publishable key\s+pk_test_\w+/);
    expect(first.output()).toContain(`curl -H "Authorization: Bearer ${secret}" ${url}/v1/keys`);
    expect((await fetch(`${url}/v1/keys`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);

    // SIGKILL leaves the embedded postmaster running; the next start must stop it and carry on.
    first.child.kill('SIGKILL');
    await first.exited;
    const second = runServerProcess(env);
    const url2 = await second.url;
    expect(second.output()).toContain('stopping a PostgreSQL left running by an earlier run');
    expect(second.output()).not.toContain('Test secret key');
    const res = await fetch(`${url2}/v1/keys`, { headers: { authorization: `Bearer ${secret}` } });
    expect(res.status).toBe(200);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(second.output()).toContain('"msg":"stopped"');
  }, 90_000);
});

describe('the server process on a configured database', () => {
  let name: string;
  afterAll(async () => {
    if (name) await dropTestDatabase(name);
  });

  it('refuses invalid configuration, listing the problem', async () => {
    const bad = runServerProcess({ DATABASE_URL: 'not a url', PORT: 'eighty' });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain('Invalid configuration');
    expect(bad.output()).toContain('PORT');
    expect(bad.output()).toContain('DATABASE_URL');
  });

  it('drains a request in flight on SIGTERM, then exits 0', async () => {
    name = await createTestDatabase();
    const server = runServerProcess({
      DATABASE_URL: databaseUrl(name),
      SVC_OPERATOR_TOKEN: OPERATOR_TOKEN,
      SVC_ENCRYPTION_KEY: ENCRYPTION_KEY,
      SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-data-')),
    });
    const url = await server.url;
    // Log lines are buffered, but a lone request's line is still written within a moment, while the server runs.
    expect((await fetch(`${url}/v1/status`)).status).toBe(200);
    await expect.poll(() => server.output(), { timeout: 2_000, interval: 50 }).toMatch(/"url":"\/v1\/status".*"msg":"request completed"/);
    // A large, slowly sent body keeps a request in flight while the signal arrives.
    const body = JSON.stringify({ name: 'Slow tenant', metadata: { note: 'x'.repeat(400) } });
    let push!: (chunk: string) => void;
    let end!: () => void;
    const stream = new ReadableStream<string>({
      start(controller) {
        push = (c) => controller.enqueue(c);
        end = () => controller.close();
      },
    }).pipeThrough(new TextEncoderStream());
    const inFlight = fetch(`${url}/v1/operator/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    push(body.slice(0, 10));
    await new Promise((r) => setTimeout(r, 300));
    server.child.kill('SIGTERM');
    await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('shutting down: draining');
    push(body.slice(10));
    end();
    const res = await inFlight;
    expect(res.status).toBe(201);
    expect(await server.exited).toBe(0);
  }, 60_000);
});

describe('the operator CLI', () => {
  let name: string;
  afterAll(async () => {
    if (name) await dropTestDatabase(name);
  });

  it('creates a tenant and prints it with its keys as JSON', async () => {
    name = await createTestDatabase();
    const cli = runServerProcess({ DATABASE_URL: databaseUrl(name) }, 'cli', ['tenants', 'create', '--name', 'CLI Co', '--products', 'streams,events']);
    expect(await cli.exited).toBe(0);
    const printed = JSON.parse(cli.output()) as { data: { tenant: { id: string; name: string; products: string[] }; keys: { test: { secret: string }; live: { publishable: string } } } };
    expect(printed.data.tenant).toMatchObject({ name: 'CLI Co', products: ['events', 'streams'] });
    expect(printed.data.tenant.id).toMatch(/^ten_/);
    expect(printed.data.keys.test.secret).toMatch(/^sk_test_/);
    expect(printed.data.keys.live.publishable).toMatch(/^pk_live_/);
  });

  it('refuses unknown products', async () => {
    name ??= await createTestDatabase();
    const cli = runServerProcess({ DATABASE_URL: databaseUrl(name) }, 'cli', ['tenants', 'create', '--name', 'X', '--products', 'teleport']);
    expect(await cli.exited).toBe(1);
    expect(cli.output()).toContain('Unknown products: teleport');
  });
});
