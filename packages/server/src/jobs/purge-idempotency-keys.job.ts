import { sql } from 'kysely';
import { LIMITS } from '@svc/contract';
import type { Database } from '../db/database';
import { deleteInBatches } from '../core/retention';
import { defineJob, schedulePayload, type JobDefinition } from './job-definition';

/** Deletes stored idempotent responses once their hours (24, or `SVC_RETAIN_IDEMPOTENCY_HOURS`) are over. */
export async function purgeIdempotencyKeys(db: Database, hours: number = LIMITS.idempotency.retentionHours): Promise<number> {
  return deleteInBatches(db, 'idempotency_keys', sql<boolean>`created_at < now() - make_interval(hours => ${Math.max(hours, LIMITS.idempotency.retentionHours)})`);
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

export const purgeIdempotencyKeysJob = (db: Database, hours?: number): JobDefinition => ({
  ...purgeIdempotencyKeysJobType,
  handler: async () => {
    await purgeIdempotencyKeys(db, hours);
  },
});
