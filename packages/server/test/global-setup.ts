import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { prepareJobQueues } from '../src/jobs/prepare-job-queues';
// Every job type is defined as its module loads: the template gets a queue for each.
import '../src/modules';
import '../src/jobs/purge-idempotency-keys.job';
import { builtServer } from './built-server';
import { admin, databaseUrl, dropDatabasesOf } from './databases';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
    testDatabasePrefix: string;
  }
}

/** Migrates a template database once per run (its own name, so runs can overlap); every test file copies it. */
export default async function setup(project: TestProject) {
  // Built once here, before any file starts a server process from it.
  builtServer();
  const run = randomBytes(4).toString('hex');
  const template = `svc_test_template_${run}`;
  const prefix = `svc_test_${run}_`;
  await admin((c) => c.query(`CREATE DATABASE ${template}`));
  const { db } = createDatabase(databaseUrl(template));
  await migrateToLatest(db);
  // Code under test sends jobs inside transactions without a worker running: the queues must exist.
  await prepareJobQueues(databaseUrl(template));
  await db.destroy();
  project.provide('templateDatabase', template);
  project.provide('testDatabasePrefix', prefix);
  return async () => {
    await dropDatabasesOf(prefix);
    // A worker that stopped while copying the template for a next file: its copy is there a moment later.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await dropDatabasesOf(prefix);
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
  };
}
