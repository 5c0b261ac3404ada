/**
 * The PostgreSQL server the tests run against. When something answers at TEST_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), this prints `external` and exits. When nothing does and the
 * address is on this machine, it starts the embedded PostgreSQL that `pnpm start` uses, at that very address (its
 * user trusted on loopback, as the machine's own server would be), prints `embedded`, and runs until it is sent
 * SIGTERM or SIGINT, or its parent dies.
 */
import { resolve } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { startEmbeddedPostgres } from '../src/boot/embedded-postgres';

const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const host = url.hostname;
const port = Number(url.port || 5432);
const user = decodeURIComponent(url.username || 'postgres');

async function answers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    // A server that answers but refuses us is the caller's to fix, not ours to replace.
    const code = (error as { code?: string }).code;
    return !(code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === 'EADDRNOTAVAIL' || code === undefined);
  } finally {
    await client.end().catch(() => {});
  }
}

if (await answers()) {
  console.log('external');
  process.exit(0);
}
if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
  console.error(`Nothing answers at the test database ${host}:${port}, which is not on this machine: start it, or unset TEST_DATABASE_URL.`);
  process.exit(1);
}

const dataDir = resolve(import.meta.dirname, '..', '.data', 'test-postgres');
const log = pino({ level: 'warn' }, pino.destination(2));
// Test databases are thrown away: durability costs time and buys nothing here.
const db = await startEmbeddedPostgres(dataDir, port, log, {
  trustedUser: user,
  settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' },
});
console.log('embedded');

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await db.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The test run that started us may die without a word: then stop with it.
const parent = process.ppid;
setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch {
    void stop();
  }
}, 1000);
