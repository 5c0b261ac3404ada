import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../db/database';

/**
 * Deletes the rows of `table` that `where` picks, `batch` at a time, so a table that grew for months is cut down
 * without one long transaction holding its locks. Returns how many went.
 */
export async function deleteInBatches(db: Executor, table: string, where: RawBuilder<boolean>, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await sql`
      delete from ${sql.table(table)}
      where ctid = any(array(select ctid from ${sql.table(table)} where ${where} limit ${batch}))`.execute(db);
    const n = Number(result.numAffectedRows ?? 0);
    total += n;
    if (n < batch) return total;
  }
}

/** `column < now() - days`: rows older than the operator's retention. */
export const olderThanDays = (column: string, days: number) => sql<boolean>`${sql.ref(column)} < now() - make_interval(days => ${days})`;
