import { sql } from 'kysely';
import type { AppContext } from '../../../core/context';
import type { Executor } from '../../../db/database';
import { defineJob, schedulePayload, type JobDefinition } from '../../../jobs/job-definition';

const FINISHED = ['sent', 'delivered', 'failed', 'captured', 'cancelled'];

/**
 * Empties the text of finished messages (and sent notices) older than `days`: what a message said (often a
 * code, a link, a name) is the part not worth keeping; its record, status and provider id stay for the
 * tenant's history. A batch at a time, as the other retention jobs.
 */
export async function purgeMessageBodies(db: Executor, days: number, batch = 5000): Promise<number> {
  let total = 0;
  for (const [table, finished] of [
    ['messages', sql<boolean>`status = any(${FINISHED}::text[])`],
    ['email_outbox', sql<boolean>`sent_at is not null`],
  ] as const) {
    for (;;) {
      const result = await sql`
        update ${sql.table(table)} set body = ''
        where ctid = any(array(
          select ctid from ${sql.table(table)}
          where body <> '' and ${finished} and created_at < now() - make_interval(days => ${days}) limit ${batch}))`.execute(db);
      const n = Number(result.numAffectedRows ?? 0);
      total += n;
      if (n < batch) break;
    }
  }
  return total;
}

export const purgeMessageBodiesType = defineJob({
  name: 'messaging-purge-message-bodies',
  version: 1,
  payload: schedulePayload(),
  retry: { limit: 2 },
  schedule: '37 * * * *',
  expireInSeconds: 900,
});

export const purgeMessageBodiesJob = (ctx: AppContext): JobDefinition => ({
  ...purgeMessageBodiesType,
  handler: async () => {
    await purgeMessageBodies(ctx.db, ctx.config.SVC_RETAIN_MESSAGE_BODIES_DAYS);
  },
});
