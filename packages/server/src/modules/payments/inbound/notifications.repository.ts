import { CompiledQuery, sql, type Insertable, type Selectable } from 'kysely';
import { jobsInsertStatement, type TransactionalJob } from '../../../jobs/send-in-transaction';
import { JOBS_CHANNEL } from '../../../jobs/queue';
import type { Executor } from '../../../db/database';
import type { PaymentNotificationsTable } from '../../../db/payments.schema';

export type NotificationRow = Selectable<PaymentNotificationsTable>;

/**
 * A configuration by its id alone (the inbound address names it, and it names its tenant and environment),
 * with the subject of the M-Pesa callback token whose hash is given, if that token is the configuration's:
 * one round trip for both.
 */
export const findConfigWithToken = (db: Executor, id: string, tokenHash: string | null) =>
  db
    .selectFrom('payment_provider_configs as c')
    .leftJoin('payment_callback_tokens as t', (join) => join.onRef('t.provider_config_id', '=', 'c.id').on('t.token_hash', '=', tokenHash ?? ''))
    .selectAll('c')
    .select(['t.subject_id as token_subject_id', 't.subject_type as token_subject_type'])
    .where('c.id', '=', id)
    .executeTakeFirst();

/** pg-boss's insert nests in the statement below, its jobs' JSON rewritten there to carry the new row's id. */
const NOTIFICATION_ID = '@notification';
const JOBS_PARAM = 'json_to_recordset($1)';

/**
 * Records a notification once per configuration and provider event id, with `job` (whose payload's
 * `'@notification'` becomes the new row's id) and the wake-up of its workers, in ONE statement: one round trip,
 * atomic without BEGIN and COMMIT. `undefined` when it was already there (then no job is sent).
 */
export async function recordNotification(db: Executor, row: Insertable<PaymentNotificationsTable>, job: TransactionalJob | null): Promise<{ id: string } | undefined> {
  const insert = db
    .insertInto('payment_notifications')
    .values(row)
    .onConflict((oc) => oc.columns(['provider_config_id', 'provider_event_id']).doNothing())
    .returning(['id'])
    .compile();
  if (!job) {
    const { rows } = await db.executeQuery<{ id: string }>(insert);
    return rows[0] ? { id: String(rows[0].id) } : undefined;
  }
  const jobs = await jobsInsertStatement([job]);
  if (!jobs.text.includes(JOBS_PARAM)) throw new Error('recordNotification: pg-boss\'s insert statement changed shape');
  const shift = jobs.values.length;
  const own = insert.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + shift}`);
  const at = shift + insert.parameters.length;
  // The job's JSON comes from the inserted row: a repeat (no row) yields NULL, so no job and no wake-up.
  const jobsSql = jobs.text.replace(JOBS_PARAM, `json_to_recordset((select replace($1::text, '"${NOTIFICATION_ID}"', to_json(n.id::text)::text)::json from n))`);
  // Dividing by the count of jobs written fails the whole statement when the queue is missing (pg-boss skips it).
  const text = `with n as (${own}), j as (${jobsSql} returning name)
    select n.id / (select count(*) from j) as id, (select count(pg_notify($${at + 1}, name)) from j) as woken from n`;
  try {
    const { rows } = await db.executeQuery<{ id: string }>(CompiledQuery.raw(text, [...jobs.values, ...insert.parameters, JOBS_CHANNEL]));
    return rows[0] ? { id: String(rows[0].id) } : undefined;
  } catch (err) {
    if ((err as { code?: string }).code === '22012') throw new Error(`Could not enqueue ${job.job.name}: create the queue first (JobQueue.start or prepareJobQueues)`);
    throw err;
  }
}

/** The placeholder for the recorded row's id in `recordNotification`'s job. */
export const notificationIdPlaceholder = NOTIFICATION_ID;

/** A configuration by its id (an applied notification's payment names the one it was made with). */
export const findConfigById = (db: Executor, id: string) => db.selectFrom('payment_provider_configs').selectAll().where('id', '=', id).executeTakeFirst();

export const findNotification = (db: Executor, id: string) => db.selectFrom('payment_notifications').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * Counts a try of a row not yet applied and returns the row, in one statement; `undefined` when it is applied
 * or missing. The row is taken by whoever applies it, so the count only informs the operator and the give-up.
 */
export const claimTry = (db: Executor, id: string) =>
  db
    .updateTable('payment_notifications')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('applied_at', 'is', null)
    .returningAll()
    .executeTakeFirst();

/** `claimTry` for several rows in one statement: answers those not yet applied. */
export const claimTries = (db: Executor, ids: readonly string[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .updateTable('payment_notifications')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', 'in', [...ids])
        .where('applied_at', 'is', null)
        .returningAll()
        .execute();

export const noteError = (db: Executor, id: string, error: string) => db.updateTable('payment_notifications').set({ last_error: error.slice(0, 500) }).where('id', '=', id).execute();

/** Marks a notification applied, once: a second apply of the same row finds it done. */
export const markApplied = (db: Executor, id: string, outcome: string, subjectId: string | null) =>
  db
    .updateTable('payment_notifications')
    .set({ applied_at: new Date(), outcome, subject_id: subjectId, last_error: null })
    .where('id', '=', id)
    .where('applied_at', 'is', null)
    .execute();

/** `markApplied` for several rows with one outcome, each with its subject, in one statement. */
export async function markAppliedTogether(db: Executor, rows: ReadonlyArray<{ id: string; subjectId: string }>, outcome: string): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    update payment_notifications n set applied_at = ${new Date()}, outcome = ${outcome}, subject_id = v.subject_id, last_error = null
    from unnest(${rows.map((r) => r.id)}::bigint[], ${rows.map((r) => r.subjectId)}::text[]) as v(id, subject_id)
    where n.id = v.id and n.applied_at is null`.execute(db);
}
