import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, ENCRYPTION_KEY, OPERATOR_TOKEN } from '../harness';
import { startLocalCluster, type LocalCluster } from '../kit/local-cluster';
import { runServerProcess, type ServerProcess } from '../process';

/**
 * The logical backup of docs/self-hosting.md: `pg_dump -Fc` of a database in use, restored with `pg_restore`
 * into a fresh database, from which a server of the `api` role (which refuses an unmigrated database) serves the
 * same tenants, keys and objects; it starts only if the encryption key is the one the sealed secrets were made with.
 * It runs on a cluster of its own, of the client tools' version: pg_dump refuses a server newer than itself, and
 * the suite's server may be the embedded one, of a newer major than Debian's tools.
 */

let cluster: LocalCluster | undefined;
const servers: ServerProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'svc-backup-'));

afterAll(async () => {
  for (const server of servers) {
    if (server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

const json = { 'content-type': 'application/json' };

describe('backup and restore', () => {
  it('a pg_dump restored into a fresh database serves as the original did', async () => {
    cluster = await startLocalCluster();
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE svc_original');
    await admin.query('CREATE DATABASE svc_restored');
    await admin.end();
    const env = { SVC_OPERATOR_TOKEN: OPERATOR_TOKEN, SVC_ENCRYPTION_KEY: ENCRYPTION_KEY, SVC_DATA_DIR: dir, SVC_WORKERS: '1' };

    // The original: the `all` role migrates it; a tenant and a stream are made through the API.
    const original = runServerProcess({ ...env, DATABASE_URL: cluster.url('svc_original') });
    servers.push(original);
    const before = await original.url;
    const created = await fetch(`${before}/v1/operator/tenants`, { method: 'POST', headers: { ...bearer(OPERATOR_TOKEN), ...json }, body: JSON.stringify({ name: 'Backed up' }) });
    expect(created.status).toBe(201);
    const { tenant, keys } = ((await created.json()) as { data: { tenant: { id: string }; keys: { test: { secret: string } } } }).data;
    const secret = keys.test.secret;
    const made = await fetch(`${before}/v1/streams/live_streams`, { method: 'POST', headers: { ...bearer(secret), ...json }, body: '{}' });
    expect(made.status).toBe(201);
    const stream = ((await made.json()) as { data: { id: string } }).data;

    // Dumped while the original serves, restored into a fresh database.
    const dump = join(dir, 'svc.dump');
    execFileSync(cluster.tool('pg_dump'), ['--format=custom', '--no-owner', `--file=${dump}`, cluster.url('svc_original')]);
    execFileSync(cluster.tool('pg_restore'), ['--no-owner', '--exit-on-error', `--dbname=${cluster.url('svc_restored')}`, dump]);

    const restored = runServerProcess({ ...env, DATABASE_URL: cluster.url('svc_restored'), SVC_ROLE: 'api' });
    servers.push(restored);
    const url = await restored.url;
    const tenants = (await (await fetch(`${url}/v1/operator/tenants`, { headers: bearer(OPERATOR_TOKEN) })).json()) as { data: { id: string }[] };
    expect(tenants.data.map((x) => x.id)).toContain(tenant.id);
    // The same key authenticates: its hash came back with the rows.
    const got = await fetch(`${url}/v1/streams/live_streams/${stream.id}`, { headers: bearer(secret) });
    expect(got.status).toBe(200);
    expect(((await got.json()) as { data: { id: string } }).data.id).toBe(stream.id);
    // And it takes writes.
    expect((await fetch(`${url}/v1/streams/live_streams`, { method: 'POST', headers: { ...bearer(secret), ...json }, body: '{}' })).status).toBe(201);
  }, 180_000);
});
