import { sql } from 'kysely';
import { LIMITS } from '@svc/contract';
import type { Database } from '../db/database';
import { defineJob, schedulePayload, type JobDefinition } from './job-definition';

/** Deletes stored idempotent responses once their 24 hours are over. */
export async function purgeIdempotencyKeys(db: Database): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${LIMITS.idempotency.retentionHours})`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export const purgeIdempotencyKeysJobType = defineJob({
  name: 'purge-idempotency-keys',
  version: 1,
  payload: schedulePayload(),
  retry: { limit: 2 },
  schedule: '17 * * * *',
  // One delete over a day of keys.
  expireInSeconds: 600,
});

export const purgeIdempotencyKeysJob = (db: Database): JobDefinition => ({
  ...purgeIdempotencyKeysJobType,
  handler: async () => {
    await purgeIdempotencyKeys(db);
  },
});
