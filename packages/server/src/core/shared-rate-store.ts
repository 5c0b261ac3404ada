import { sql } from 'kysely';
import type { Database } from '../db/database';

export interface SharedTake {
  /** Points granted now, 0 to `want`. */
  granted: number;
  /** Points the bucket's current window has given out, on every process. */
  used: number;
  /** Milliseconds until the window ends. */
  msLeft: number;
}

/** Counts every process's use of a bucket: up to `want` of `limit` points of its current one-second window. */
export interface SharedRateStore {
  take(bucket: string, want: number, limit: number): Promise<SharedTake>;
}

/** Rows of windows older than this many seconds are deleted now and then. */
const KEEP_SECONDS = 60;

/**
 * The shared counters in PostgreSQL (`rate_limit_buckets`, unlogged): one upsert per call, the window being the
 * database clock's current second, so every process counts against the same window. The grant is decided under
 * the row's lock, so concurrent takes never give out more than `limit` in a window.
 */
export class PostgresRateStore implements SharedRateStore {
  private lastPurge = 0;

  constructor(private readonly db: Database) {}

  async take(bucket: string, want: number, limit: number): Promise<SharedTake> {
    const { rows } = await sql<{ used: number; granted: number; ms_left: number }>`
      with clock as (select extract(epoch from clock_timestamp()) as t)
      insert into rate_limit_buckets as b (bucket, window_id, used, granted)
      select ${bucket}, floor(t)::bigint, least(${want}::int, ${limit}::int), least(${want}::int, ${limit}::int) from clock
      on conflict (bucket) do update set
        granted = case when b.window_id = excluded.window_id then least(${want}::int, greatest(${limit}::int - b.used, 0)) else excluded.granted end,
        used = case when b.window_id = excluded.window_id then b.used + least(${want}::int, greatest(${limit}::int - b.used, 0)) else excluded.used end,
        window_id = excluded.window_id
      returning used, granted, (select ceil((floor(t) + 1 - t) * 1000)::int from clock) as ms_left
    `.execute(this.db);
    this.purgeNowAndThen();
    const row = rows[0]!;
    return { granted: row.granted, used: row.used, msLeft: Math.max(1, row.ms_left) };
  }

  private purgeNowAndThen(): void {
    const now = Date.now();
    if (now - this.lastPurge < KEEP_SECONDS * 1000) return;
    this.lastPurge = now;
    void sql`delete from rate_limit_buckets where window_id < floor(extract(epoch from clock_timestamp()))::bigint - ${KEEP_SECONDS}::int`
      .execute(this.db)
      .catch(() => {});
  }
}
