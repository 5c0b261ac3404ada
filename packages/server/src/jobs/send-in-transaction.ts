import { CompiledQuery, sql, type Transaction } from 'kysely';
import PgBoss from 'pg-boss';
import type { DB } from '../db/schema';
import { queuePolicy, type JobType } from './job-definition';
import { JOB_SCHEMA, JOBS_CHANNEL } from './queue';

/** A job to send: its type, its payload (checked against the type's schema), and when it may start. */
export interface TransactionalJob<P extends object = any> {
  job: JobType<P>;
  data: P;
  /** Seconds from now, or a moment. */
  startAfter?: number | Date;
}

/** A job of `type` to send with `sendInTransaction`; typed, so the compiler checks the payload too. */
export const jobOf = <P extends object>(job: JobType<P>, data: P, startAfter?: number | Date): TransactionalJob<P> =>
  startAfter === undefined ? { job, data } : { job, data, startAfter };

// Only builds pg-boss's insert statement; every call passes the caller's transaction as `db`, so this
// instance never opens a connection of its own.
const sender = new PgBoss({
  schema: JOB_SCHEMA,
  db: {
    executeSql: async () => {
      throw new Error('send-in-transaction: pass the transaction as `db`');
    },
  },
});

/** pg-boss's `db` option over a Kysely transaction; counts the rows its statements write. */
function onTransaction(trx: Transaction<DB>) {
  const adapter = {
    written: 0,
    executeSql: async (text: string, values: unknown[]) => {
      const result = await trx.executeQuery(CompiledQuery.raw(text, values));
      adapter.written += Number(result.numAffectedRows ?? 0);
      return { rows: result.rows };
    },
  };
  return adapter;
}

/**
 * Enqueues jobs as part of `trx`: they exist only if the transaction commits, and a committed change
 * cannot lose its job. Each payload is checked against its job's schema first (a mismatch is a bug: it
 * throws). Throws when a queue does not exist (pg-boss would silently drop the job). Jobs due now wake their queue's workers on every process as the transaction commits (`JobQueue.wakeOn`).
 */
const rowsOf = (jobs: readonly TransactionalJob[]) =>
  jobs.map(({ job, data, startAfter }) => ({
    name: job.name,
    data: job.payload.parse(data),
    ...queuePolicy(job),
    startAfter: startAfter instanceof Date ? startAfter.toISOString() : startAfter === undefined ? undefined : `${startAfter} seconds`,
  }));

/**
 * pg-boss's statement inserting `jobs`, not run, to be nested in a larger statement (a CTE) that writes a row
 * and its job at once; `$1` is the jobs' JSON, `$2`..`$6` pg-boss's defaults.
 */
export async function jobsInsertStatement(jobs: readonly TransactionalJob[]): Promise<{ text: string; values: unknown[] }> {
  let statement: { text: string; values: unknown[] } | undefined;
  const capture = async (text: string, values: unknown[]) => {
    statement = { text, values };
    return { rows: [] };
  };
  await sender.insert(rowsOf(jobs), { db: { executeSql: capture } });
  if (!statement) throw new Error('send-in-transaction: pg-boss built no insert statement');
  return statement;
}

export async function sendInTransaction(trx: Transaction<DB>, jobs: readonly TransactionalJob[]): Promise<void> {
  if (jobs.length === 0) return;
  const rows = rowsOf(jobs);
  const db = onTransaction(trx);
  // pg-boss joins each job to its queue: a job for a queue that does not exist is silently not written.
  await sender.insert(rows, { db });
  if (db.written !== jobs.length) {
    const names = [...new Set(jobs.map((j) => j.job.name))].join(', ');
    throw new Error(`Could not enqueue ${names}: create the queue first (JobQueue.start or prepareJobQueues)`);
  }
  const now = [...new Set(jobs.filter((j) => j.startAfter === undefined).map((j) => j.job.name))];
  if (now.length > 0) {
    await sql`select pg_notify(${JOBS_CHANNEL}, name) from unnest(${now}::text[]) as name`.execute(trx);
  }
}
