import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/boot/embedded-postgres';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../databases';
import { ENCRYPTION_KEY, OPERATOR_TOKEN } from '../harness';
import { SERVER_DIR } from '../process';
import { freePort } from '../kit/free-port';

/** `pnpm start` in its own process group, as a terminal or a service manager runs it. */
function pnpmStart(env: Record<string, string>) {
  const child = spawn('pnpm', ['start'], { cwd: SERVER_DIR, env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

describe('pnpm start and a graceful stop', () => {
  let name: string | undefined;
  afterAll(async () => {
    if (name) await dropTestDatabase(name);
  });

  it.each([
    ['to the whole process group (Ctrl-C, systemd, kill -- -pgid)', true],
    ['to pnpm alone (docker stop, kill <pid>)', false],
  ])('SIGTERM %s exits 0, drained, without ELIFECYCLE', async (_how, group) => {
    name ??= await createTestDatabase();
    const run = pnpmStart({ DATABASE_URL: databaseUrl(name), SVC_OPERATOR_TOKEN: OPERATOR_TOKEN, SVC_ENCRYPTION_KEY: ENCRYPTION_KEY });
    try {
      await expect.poll(run.output, { timeout: 60_000, interval: 200 }).toContain('"msg":"listening"');
      process.kill(group ? -run.child.pid! : run.child.pid!, 'SIGTERM');
      expect(await run.exited).toBe(0);
      expect(run.output()).toContain('"msg":"stopped"');
      expect(run.output()).not.toContain('ELIFECYCLE');
    } finally {
      try {
        process.kill(-run.child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }, 90_000);
});

const asRoot = process.getuid?.() === 0;

describe.skipIf(!asRoot)('the embedded PostgreSQL started by root from a private (0700) directory', () => {
  const priv = mkdtempSync(join(tmpdir(), 'svc-private-'));
  const shared = mkdtempSync(join(tmpdir(), 'svc-shared-'));
  chmodSync(priv, 0o700);
  chmodSync(shared, 0o755);
  afterAll(() => {
    rmSync(priv, { recursive: true, force: true });
    rmSync(shared, { recursive: true, force: true });
  });
  const log = pino({ level: 'silent' });
  // The project's copy of PostgreSQL as it would sit in a clone under /root: only through the private directory.
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const packaged = join(dirname(fromEmbedded.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)), '..');
  mkdirSync(join(priv, 'linux'), { recursive: true });
  symlinkSync(packaged, join(priv, 'linux', 'pkg'));
  const nativeDir = join(priv, 'linux', 'pkg', 'native');

  it('runs PostgreSQL from a copy the postgres user can reach, with its data there too', async () => {
    const port = await freePort();
    const db = await startEmbeddedPostgres(join(priv, 'data'), port, log, { nativeDir, sharedDir: shared });
    try {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      expect((await client.query('select 1 as one')).rows[0].one).toBe(1);
      await client.end();
      expect(readdirSync(shared).sort()).toEqual([expect.stringMatching(/^data-[0-9a-f]{12}$/), expect.stringMatching(/^postgres-/)]);
    } finally {
      await db.stop();
    }
  }, 120_000);

  it('a second command on the data directory of a running server shares its PostgreSQL and leaves it running', async () => {
    const port = await freePort();
    const server = await startEmbeddedPostgres(join(priv, 'data3'), port, log, { nativeDir, sharedDir: shared });
    try {
      // Another port asked for: the running postmaster's own is used.
      const command = await startEmbeddedPostgres(join(priv, 'data3'), await freePort(), log, { nativeDir, sharedDir: shared });
      expect(command.url).toBe(server.url);
      await command.stop();
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      expect((await client.query('select 1 as one')).rows[0].one).toBe(1);
      await client.end();
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('stops with one actionable line when nothing it can reach is writable', async () => {
    const port = 58000 + Math.floor(Math.random() * 1000);
    const err = await startEmbeddedPostgres(join(priv, 'data2'), port, log, { nativeDir, sharedDir: join(priv, 'nowhere') }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    const message = (err as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toMatch(/postgres` user, who cannot reach .* set DATABASE_URL/);
  });
});
