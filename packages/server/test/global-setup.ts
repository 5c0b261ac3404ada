import { createDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { admin, databaseUrl, TEMPLATE_DB } from './databases';

/** Migrates a template database once per run; every test file copies it. */
export default async function setup() {
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  });
  const { db } = createDatabase(databaseUrl(TEMPLATE_DB));
  await migrateToLatest(db);
  await db.destroy();
}
