import { parseArgs } from 'node:util';
import { PRODUCTS, type Product } from '@svc/contract';
import { loadConfig } from './config';
import { createDatabase } from '../db/database';
import { migrateToLatest, pendingMigrations } from '../db/migrate';
import { prepareJobQueues } from '../jobs/prepare-job-queues';
// Defines every job type, for the queues `migrate` creates.
import '../modules';
import '../jobs/purge-idempotency-keys.job';
import { startEmbeddedPostgres } from './embedded-postgres';
import { createLogger } from './logger';
import { createTenant } from '../modules/platform/tenants/tenants.service';

const USAGE = `Usage: svc migrate
       svc tenants create --name NAME [--products streams,events,...]

migrate         Brings the database to this build's schema and creates the job queues.
                Run it before starting (or after upgrading) processes of the api, worker
                and media roles, which refuse an unmigrated database; SVC_ROLE=all
                migrates on start by itself.
tenants create  Creates a tenant with a secret and a publishable key in each environment
                and prints the same JSON as POST /v1/operator/tenants.

Both use DATABASE_URL, or the embedded PostgreSQL under SVC_DATA_DIR when it is unset.`;

/** The database named by the environment, for one command. */
async function withDatabase<T>(run: (db: ReturnType<typeof createDatabase>['db'], url: string) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
  const embedded = config.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres(config.SVC_DATA_DIR, Number(process.env.SVC_EMBEDDED_PG_PORT ?? 54329), log);
  const url = config.DATABASE_DIRECT_URL ?? config.DATABASE_URL ?? embedded!.url;
  const { db } = createDatabase(url, 2);
  try {
    return await run(db, url);
  } finally {
    await db.destroy();
    await embedded?.stop();
  }
}

async function migrate(): Promise<void> {
  await withDatabase(async (db, url) => {
    const before = (await pendingMigrations(db)).length;
    await migrateToLatest(db);
    // Every job type is defined as the module list loads; API processes send to these queues.
    await prepareJobQueues(url);
    process.stdout.write(`migrated: ${before} migration(s) run, job queues ready\n`);
  });
}

async function tenantsCreate(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { name: { type: 'string' }, products: { type: 'string' } } });
  if (!values.name) throw new Error(`--name is required\n\n${USAGE}`);
  const products = values.products?.split(',').map((p) => p.trim()).filter(Boolean);
  const unknown = products?.filter((p) => !(PRODUCTS as readonly string[]).includes(p));
  if (unknown?.length) throw new Error(`Unknown products: ${unknown.join(', ')}. Known: ${PRODUCTS.join(', ')}`);

  const name = values.name;
  await withDatabase(async (db) => {
    await migrateToLatest(db);
    const created = await createTenant(db, { name, products: products as Product[] | undefined });
    process.stdout.write(`${JSON.stringify({ data: created }, null, 2)}\n`);
  });
}

async function main(argv: string[]): Promise<void> {
  const [group, command, ...rest] = argv;
  if (group === 'migrate' && command === undefined) return migrate();
  if (group === 'tenants' && command === 'create') return tenantsCreate(rest);
  process.stdout.write(`${USAGE}\n`);
  if (group !== undefined && group !== '--help' && group !== 'help') process.exitCode = 2;
}

main(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
