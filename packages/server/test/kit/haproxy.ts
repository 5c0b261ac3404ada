import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';

const DOCS = join(import.meta.dirname, '../../../../docs/failover');
export const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';

export interface RunningHaproxy {
  port: number;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * HAProxy with the documented configuration (docs/failover/haproxy.cfg and its primary check), on a free
 * loopback port, leading to whichever of `servers` takes writes. Resolves once a connection reaches one.
 */
export async function startPrimaryProxy(servers: { name: string; port: number }[]): Promise<RunningHaproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-haproxy-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const cfg = readFileSync(join(DOCS, 'haproxy.cfg'), 'utf8')
    .replace('@LISTEN@', `127.0.0.1:${port}`)
    .replace('@CHECK@', join(DOCS, 'pg-primary-check.sh'))
    .replace('@SERVERS@', servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`).join('\n'));
  writeFileSync(join(dir, 'haproxy.cfg'), cfg);
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; ; i++) {
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.end();
      break;
    } catch (err) {
      await client.end().catch(() => {});
      if (i > 100 || child.exitCode !== null) throw new Error(`haproxy leads nowhere: ${(err as Error).message}\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    port,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const haproxyInstalled = () => existsSync(HAPROXY);
