import PgBoss from 'pg-boss';
import { pgConnection } from '../db/session-target';
import { definedJobTypes, queuePolicy, type JobType } from './job-definition';
import { JOB_SCHEMA } from './queue';

/**
 * Creates pg-boss's schema and a queue per job type, without starting any worker or maintenance: for a
 * database with no worker (the test template, a CLI), where code still sends jobs inside transactions.
 * By default every job type defined in the process (import the module list first).
 */
export async function prepareJobQueues(connectionString: string, types: readonly JobType<any>[] = definedJobTypes()) {
  const boss = new PgBoss({ ...pgConnection(connectionString), schema: JOB_SCHEMA, max: 1, supervise: false, schedule: false });
  boss.on('error', () => {});
  await boss.start();
  try {
    for (const type of types) await boss.createQueue(type.name, { name: type.name, ...queuePolicy(type) });
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}
