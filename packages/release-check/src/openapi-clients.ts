import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@hey-api/openapi-ts';
import openapiTS, { astToString } from 'openapi-typescript';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE = join(PACKAGE_DIR, 'fixtures', 'openapi-clients');

/**
 * A tenant's project beside the served documents: openapi-typescript's types (for openapi-fetch) and hey-api's
 * SDK from `/openapi.json`, hey-api's types from `/openapi.3.0.json`, and the script that uses them. Its
 * `node_modules` is this package's, where openapi-fetch, TypeScript and Node's types are installed.
 */
export async function generateClients(baseUrl: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-openapi-clients-'));
  symlinkSync(join(PACKAGE_DIR, 'node_modules'), join(dir, 'node_modules'), 'dir');
  cpSync(FIXTURE, dir, { recursive: true });
  for (const name of ['openapi.json', 'openapi.3.0.json']) {
    const res = await fetch(`${baseUrl}/${name}`);
    if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
    writeFileSync(join(dir, name), await res.text());
  }
  const types = await openapiTS(new URL(`${baseUrl}/openapi.json`));
  mkdirSync(join(dir, 'openapi-typescript'));
  writeFileSync(join(dir, 'openapi-typescript', 'schema.d.ts'), astToString(types));
  const quiet = { logs: { level: 'silent' as const } };
  await createClient({
    input: join(dir, 'openapi.json'),
    output: { path: join(dir, 'hey-api'), importFileExtension: '.js' },
    plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
    ...quiet,
  } as never);
  await createClient({
    input: join(dir, 'openapi.3.0.json'),
    output: { path: join(dir, 'hey-api-3.0'), importFileExtension: '.js' },
    plugins: ['@hey-api/typescript'],
    ...quiet,
  } as never);
  return dir;
}
