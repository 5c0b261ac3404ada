import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestServer, ENCRYPTION_KEY, OPERATOR_TOKEN, type TestServer } from '../harness';
import { startPgBouncer, type RunningPgBouncer } from '../pgbouncer';
import { runServerProcess, type ServerProcess } from '../process';

export interface Answer {
  status: number;
  body: any;
}

/**
 * One request on a connection of its own: the cluster's primary hands each new connection to the next API
 * process, so requests in a row go to both.
 */
export function call(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: object): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(`${base}${path}`, { method, agent: false, headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export interface ScaleOut {
  /** The in-test app on the same database, for seeding and for reading rows. */
  t: TestServer;
  bouncer: RunningPgBouncer;
  /** The two API processes' port (SVC_ROLE=api, SVC_WORKERS=2). */
  apiUrl: string;
  api: ServerProcess;
  worker: ServerProcess;
  close(): Promise<void>;
}

/** Two API processes on one port and one worker process, on one database through PgBouncer in transaction mode. */
export async function startScaleOut(publicLimit: number): Promise<ScaleOut> {
  const t = await createTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });
  // A tenant first: nothing else creates a demo tenant.
  await t.tenant('First');
  const bouncer = await startPgBouncer(8);
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-scale-out-'));
  const env = {
    DATABASE_URL: bouncer.through(t.databaseUrl),
    // LISTEN/NOTIFY and pg-boss need a session of their own.
    DATABASE_DIRECT_URL: t.databaseUrl,
    SVC_OPERATOR_TOKEN: OPERATOR_TOKEN,
    SVC_ENCRYPTION_KEY: ENCRYPTION_KEY,
    SVC_DATA_DIR: dataDir,
    SVC_RATE_LIMIT_PUBLIC: String(publicLimit),
  };
  const api = runServerProcess({ ...env, SVC_ROLE: 'api', SVC_WORKERS: '2' });
  const worker = runServerProcess({ ...env, SVC_ROLE: 'worker' });
  const [apiUrl] = await Promise.all([api.url, worker.url]);
  return {
    t,
    bouncer,
    apiUrl,
    api,
    worker,
    async close() {
      for (const p of [api, worker]) if (p.child.exitCode === null) p.child.kill('SIGTERM');
      await Promise.all([api.exited, worker.exited]);
      await bouncer.stop();
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
