import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ADMIN_URL } from './databases';

export const PGBOUNCER = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer';

export interface RunningPgBouncer {
  port: number;
  /** `url` with its host and port replaced by the bouncer's. */
  through: (url: string) => string;
  /** Transactions PgBouncer passed on for `database` so far. */
  transactions: (database: string) => Promise<number>;
  stop: () => Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * A real PgBouncer in transaction mode on a free loopback port, in front of the test PostgreSQL (`ADMIN_URL`)
 * (every database, trusted), its configuration in a temporary directory. As root it runs as `postgres`.
 */
export async function startPgBouncer(poolSize = 4): Promise<RunningPgBouncer> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pgbouncer-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n', { mode: 0o644 });
  const ini = [
    '[databases]',
    `* = host=${new URL(ADMIN_URL).hostname} port=${new URL(ADMIN_URL).port || 5432}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${join(dir, 'userlist.txt')}`,
    'admin_users = postgres',
    'pool_mode = transaction',
    `default_pool_size = ${poolSize}`,
    'max_client_conn = 500',
    'ignore_startup_parameters = extra_float_digits,options',
  ].join('\n');
  writeFileSync(join(dir, 'pgbouncer.ini'), `${ini}\n`, { mode: 0o644 });
  const args = [...(process.getuid?.() === 0 ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')];
  const child: ChildProcess = spawn(PGBOUNCER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const admin = () => new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'pgbouncer' });
  for (let i = 0; ; i++) {
    const c = admin();
    try {
      await c.connect();
      await c.end();
      break;
    } catch (err) {
      await c.end().catch(() => {});
      if (i > 50 || child.exitCode !== null) throw new Error(`pgbouncer did not start: ${(err as Error).message}\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    port,
    through: (url) => {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    transactions: async (database) => {
      const c = admin();
      await c.connect();
      try {
        const { rows } = await c.query('SHOW STATS');
        return Number(rows.find((r: { database: string }) => r.database === database)?.total_xact_count ?? 0);
      } finally {
        await c.end();
      }
    },
    stop: async () => {
      child.kill('SIGINT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
