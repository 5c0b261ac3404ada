import PgBoss from 'pg-boss';
import { JOB_SCHEMA } from './queue';
import { QUEUE_NAMES } from './queue-names';

/** Creates pg-boss's schema and the queues of `QUEUE_NAMES`, without starting any worker or maintenance. */
export async function prepareJobQueues(connectionString: string, names: readonly string[] = Object.values(QUEUE_NAMES)) {
  const boss = new PgBoss({ connectionString, schema: JOB_SCHEMA, max: 1, supervise: false, schedule: false });
  boss.on('error', () => {});
  await boss.start();
  try {
    for (const name of names) await boss.createQueue(name);
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}
