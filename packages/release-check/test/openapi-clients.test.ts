import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type RunningServer } from '@svc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClients } from '../src/openapi-clients';
import { validateResponses, type Observed } from '../src/openapi-responses';
import { run } from '../src/run';

let server: RunningServer;
let dir: string;
let observed: Observed[];

beforeAll(async () => {
  server = await startServer();
  dir = await generateClients(server.url);
}, 600_000);
afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const document = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8'));

describe('clients generated from the served document, as tenants make them', () => {
  it('type-check under strict tsc, nullable fields typed nullable (openapi-typescript, and hey-api from 3.1 and from 3.0.3)', () => {
    run(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], dir, 300_000);
  }, 300_000);

  it('call the real server with the credentials and headers the document declares', async () => {
    const tenant = await server.createTenant('OpenAPI clients');
    const env = { ...process.env, SVC_URL: server.url, SVC_SECRET_KEY: tenant.keys.test.secret, SVC_PUBLISHABLE_KEY: tenant.keys.test.publishable };
    const out = JSON.parse(execFileSync(process.execPath, [join(dir, 'out', 'tenant-client.mjs')], { cwd: dir, env, encoding: 'utf8' })) as { seen: Observed[]; typed: Record<string, unknown> };
    observed = out.seen;
    expect(observed.map((o) => `${o.client} ${o.method.toUpperCase()} ${o.path} ${o.status}`)).toEqual([
      'openapi-fetch POST /v1/streams/live_streams 201',
      'openapi-fetch POST /v1/streams/playback_ids 201',
      'openapi-fetch POST /v1/streams/playback_ids 201',
      'openapi-fetch POST /v1/access/check 200',
      'openapi-fetch GET /v1/streams/live_streams/{id} 404',
      'hey-api GET /v1/status 200',
      'hey-api GET /v1/streams/live_streams/{id} 200',
      'hey-api GET /v1/keys 200',
      'hey-api POST /v1/access/check 200',
      'hey-api POST /auth/v1/otp 200',
      'hey-api GET /auth/v1/.well-known/openid-configuration 200',
    ]);
    // The server sent null where the types allow it (`entitlement`), and the 404 names its parameter.
    expect(out.typed, JSON.stringify(out.typed)).toMatchObject({ denied: 'no_entitlement', param: 'id', entitlement: null });
  }, 120_000);

  it('answer as the document says, under Ajv with JSON Schema 2020-12 (3.1.0) and with draft 04 (the 3.0.3 rendering)', () => {
    expect(observed.length).toBeGreaterThan(5);
    expect(validateResponses(document('openapi.json'), observed)).toEqual([]);
    expect(validateResponses(document('openapi.3.0.json'), observed)).toEqual([]);
  });
});
