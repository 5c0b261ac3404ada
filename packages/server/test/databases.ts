import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** The PostgreSQL server tests run against; each test file gets a fresh database copied from a migrated template. */
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** This run's databases carry its prefix: the global setup drops them all once the files are done. */
const runPrefix = () => inject('testDatabasePrefix');

async function copyTemplate(): Promise<string> {
  const name = `${runPrefix()}${randomBytes(6).toString('hex')}`;
  await admin(async (c) => {
    await c.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
    // No test outlives a crash of this PostgreSQL server, so a commit need not wait for its WAL to reach the disk.
    await c.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  });
  return name;
}

// Copying the template takes a second or more on a busy machine: each worker copies the next file's database
// while the current file runs.
let ready: Promise<string> | undefined;

export async function createTestDatabase(): Promise<string> {
  const taken = ready ? ready.catch(() => copyTemplate()) : copyTemplate();
  const name = await taken;
  ready = copyTemplate();
  ready.catch(() => undefined);
  return name;
}

/**
 * Ends the database's connections. Dropping a database makes PostgreSQL checkpoint the whole cluster (every file's
 * writes) and wait for it, seconds each on a busy machine, so this run's databases are dropped together at its end
 * (global-setup.ts); any other is dropped now.
 */
export async function dropTestDatabase(name: string): Promise<void> {
  if (!name.startsWith(runPrefix())) {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    return;
  }
  await admin((c) => c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]));
}

/** Drops every database whose name starts with `prefix`, several at a time, so that their checkpoints coincide. */
export async function dropDatabasesOf(prefix: string): Promise<void> {
  const { rows } = await admin((c) => c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]));
  const queue = rows.map((r) => r.datname);
  const dropper = async () => {
    for (let name = queue.pop(); name; name = queue.pop()) await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  };
  await Promise.all(Array.from({ length: 8 }, dropper));
}
