import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { prepareJobQueues } from '../src/jobs/prepare-job-queues';
// Every job type is defined as its module loads: the template gets a queue for each.
import '../src/modules';
import '../src/jobs/purge-idempotency-keys.job';
import { builtServer } from './built-server';
import { admin, databaseUrl } from './databases';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

/** Migrates a template database once per run (its own name, so runs can overlap); every test file copies it. */
export default async function setup(project: TestProject) {
  // Built once here, before any file starts a server process from it.
  builtServer();
  const template = `svc_test_template_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${template}`));
  const { db } = createDatabase(databaseUrl(template));
  await migrateToLatest(db);
  // Code under test sends jobs inside transactions without a worker running: the queues must exist.
  await prepareJobQueues(databaseUrl(template));
  await db.destroy();
  project.provide('templateDatabase', template);
  return async () => {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
  };
}
