import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { admin, databaseUrl, dropTestDatabase } from '../databases';
import { bearer, createTestServer, ENCRYPTION_KEY, OPERATOR_TOKEN, type TestServer } from '../harness';
import { runServerProcess, type ServerProcess } from '../process';

/**
 * The logical backup of docs/self-hosting.md: `pg_dump -Fc` of a database in use, restored with `pg_restore`
 * into a fresh database, from which a server of the `api` role (which refuses an unmigrated database) serves the
 * same tenants, keys and objects; it starts only if the encryption key is the one the sealed secrets were made with.
 */

let t: TestServer | undefined;
let restored: string | undefined;
let server: ServerProcess | undefined;
const dir = mkdtempSync(join(tmpdir(), 'svc-backup-'));

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await t?.close();
  if (restored) await dropTestDatabase(restored);
  rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('a pg_dump restored into a fresh database serves as the original did', async () => {
    t = await createTestServer();
    const { tenant, keys } = await t.tenant('Backed up');
    const secret = keys.test.secret;
    const stream = (await t.http().post('/v1/streams/live_streams').set(bearer(secret)).send({})).body.data;
    expect(stream.id).toBeTruthy();

    const dump = join(dir, 'svc.dump');
    execFileSync('pg_dump', ['--format=custom', '--no-owner', `--file=${dump}`, t.databaseUrl]);
    restored = `svc_test_restored_${randomBytes(4).toString('hex')}`;
    await admin((c) => c.query(`CREATE DATABASE ${restored}`));
    execFileSync('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${databaseUrl(restored)}`, dump]);

    server = runServerProcess({
      DATABASE_URL: databaseUrl(restored),
      SVC_ROLE: 'api',
      SVC_WORKERS: '1',
      SVC_OPERATOR_TOKEN: OPERATOR_TOKEN,
      SVC_ENCRYPTION_KEY: ENCRYPTION_KEY,
      SVC_DATA_DIR: dir,
    });
    const url = await server.url;
    const tenants = (await (await fetch(`${url}/v1/operator/tenants`, { headers: bearer(OPERATOR_TOKEN) })).json()) as { data: { id: string }[] };
    expect(tenants.data.map((x) => x.id)).toContain(tenant.id);
    // The same key authenticates: its hash came back with the rows.
    const got = await fetch(`${url}/v1/streams/live_streams/${stream.id}`, { headers: bearer(secret) });
    expect(got.status).toBe(200);
    expect(((await got.json()) as { data: { id: string } }).data.id).toBe(stream.id);
    // And it takes writes.
    expect((await fetch(`${url}/v1/streams/live_streams`, { method: 'POST', headers: { ...bearer(secret), 'content-type': 'application/json' }, body: '{}' })).status).toBe(201);
  });
});
