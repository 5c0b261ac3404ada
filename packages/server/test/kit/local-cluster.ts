import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

/** The newest PostgreSQL installed from Debian's packages: its server and its client tools, of one major version. */
export function debianPostgres(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((d) => existsSync(join(root, d, 'bin', 'pg_dump'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (majors.length === 0) throw new Error('no PostgreSQL from Debian\'s packages: apt-get install -y postgresql');
  return join(root, majors[0]!, 'bin');
}

export interface LocalCluster {
  /** A connection string to `database` on the cluster, as its superuser `postgres`. */
  url: (database: string) => string;
  /** A client tool of the cluster's own version (`pg_dump`, `pg_restore`, `createdb`). */
  tool: (name: string) => string;
  stop: () => Promise<void>;
}

/**
 * A throwaway PostgreSQL cluster of Debian's binaries on a free loopback port, its data in a temporary directory
 * (run as `postgres` when the test runs as root), trusting local connections. Client tools such as pg_dump refuse a
 * newer server than themselves, so a test of them runs on a server of their own version, whatever the suite's is.
 */
export async function startLocalCluster(): Promise<LocalCluster> {
  const bin = debianPostgres();
  const dir = mkdtempSync(join(tmpdir(), 'svc-cluster-'));
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const as = asRoot ? { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) } : {};
  if (asRoot) chownSync(dir, as.uid!, as.gid!);
  const data = join(dir, 'data');
  execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8'], { ...as, stdio: 'pipe', env: { LC_ALL: 'C.UTF-8' } });
  const port = await freePort();
  const child: ChildProcess = spawn(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', '', '-c', 'fsync=off'], {
    ...as,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { LC_ALL: 'C.UTF-8' },
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      output += c.toString();
      if (output.includes('ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`PostgreSQL exited with ${code}:\n${output}`)));
  });
  return {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    tool: (name) => join(bin, name),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGINT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
