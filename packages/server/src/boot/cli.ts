import { parseArgs } from 'node:util';
import { PRODUCTS, type Product } from '@svc/contract';
import { loadConfig } from './config';
import { createDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { startEmbeddedPostgres } from './embedded-postgres';
import { createLogger } from './logger';
import { createTenant } from '../modules/platform/tenants/tenants.service';

const USAGE = `Usage: svc tenants create --name NAME [--products streams,events,...]

Creates a tenant with a secret and a publishable key in each environment and prints
the same JSON as POST /v1/operator/tenants. Uses DATABASE_URL, or the embedded
PostgreSQL under SVC_DATA_DIR when it is unset.`;

async function tenantsCreate(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { name: { type: 'string' }, products: { type: 'string' } } });
  if (!values.name) throw new Error(`--name is required\n\n${USAGE}`);
  const products = values.products?.split(',').map((p) => p.trim()).filter(Boolean);
  const unknown = products?.filter((p) => !(PRODUCTS as readonly string[]).includes(p));
  if (unknown?.length) throw new Error(`Unknown products: ${unknown.join(', ')}. Known: ${PRODUCTS.join(', ')}`);

  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
  const embedded = config.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres(config.SVC_DATA_DIR, Number(process.env.SVC_EMBEDDED_PG_PORT ?? 54329), log);
  const { db } = createDatabase(config.DATABASE_URL ?? embedded!.url, 2);
  try {
    await migrateToLatest(db);
    const created = await createTenant(db, { name: values.name, products: products as Product[] | undefined });
    process.stdout.write(`${JSON.stringify({ data: created }, null, 2)}\n`);
  } finally {
    await db.destroy();
    await embedded?.stop();
  }
}

async function main(argv: string[]): Promise<void> {
  const [group, command, ...rest] = argv;
  if (group === 'tenants' && command === 'create') return tenantsCreate(rest);
  process.stdout.write(`${USAGE}\n`);
  if (group !== undefined && group !== '--help' && group !== 'help') process.exitCode = 2;
}

main(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
