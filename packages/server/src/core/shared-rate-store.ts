import { sql } from 'kysely';
import type { Database } from '../db/database';
import { Batcher } from './batcher';

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

interface Take {
  bucket: string;
  want: number;
  limit: number;
}

/** Rows of windows older than this many seconds are deleted now and then. */
const KEEP_SECONDS = 60;

/**
 * The shared counters in PostgreSQL (`rate_limit_buckets`, unlogged), the window being the database clock's
 * current second, so every process counts against the same window. Takes go out in batches (group commit): one
 * upsert per batch, one row per bucket, the grant decided under the row's lock, so concurrent takes never give
 * out more than the limit in a window. A bucket's grant is shared among its takes in arrival order.
 */
export class PostgresRateStore implements SharedRateStore {
  private lastPurge = 0;
  private readonly batch: Batcher<Take, SharedTake>;

  constructor(private readonly db: Database) {
    this.batch = new Batcher((takes) => this.flush(takes));
  }

  take(bucket: string, want: number, limit: number): Promise<SharedTake> {
    return this.batch.add({ bucket, want, limit });
  }

  private async flush(takes: Take[]): Promise<SharedTake[]> {
    const buckets = new Map<string, { want: number; limit: number }>();
    for (const t of takes) {
      const b = buckets.get(t.bucket);
      // The latest limit wins: takes of one bucket with two limits meet only as a plan changes.
      buckets.set(t.bucket, { want: (b?.want ?? 0) + t.want, limit: t.limit });
    }
    const names = [...buckets.keys()];
    // A want above the limit could never be granted in full; capped, `excluded.used` carries it to the update.
    const wants = names.map((n) => Math.min(buckets.get(n)!.want, buckets.get(n)!.limit));
    const limits = names.map((n) => buckets.get(n)!.limit);
    const { rows } = await sql<{ bucket: string; used: number; granted: number; ms_left: number }>`
      with clock as (select extract(epoch from clock_timestamp()) as t)
      insert into rate_limit_buckets as b (bucket, window_id, used, granted, lim)
      select v.bucket, floor(clock.t)::bigint, v.want, v.want, v.lim
      from unnest(${names}::text[], ${wants}::int[], ${limits}::int[]) as v(bucket, want, lim), clock
      on conflict (bucket) do update set
        granted = case when b.window_id = excluded.window_id then least(excluded.used, greatest(excluded.lim - b.used, 0)) else excluded.used end,
        used = case when b.window_id = excluded.window_id then b.used + least(excluded.used, greatest(excluded.lim - b.used, 0)) else excluded.used end,
        window_id = excluded.window_id,
        lim = excluded.lim
      returning b.bucket, b.used, b.granted, (select ceil((floor(t) + 1 - t) * 1000)::int from clock) as ms_left
    `.execute(this.db);
    this.purgeNowAndThen();
    // Each take sees the count as it stood after its own grant, as if the takes had gone out one by one.
    const state = new Map(rows.map((r) => [r.bucket, { left: r.granted, used: r.used - r.granted, msLeft: Math.max(1, r.ms_left) }]));
    return takes.map((t) => {
      const row = state.get(t.bucket)!;
      const granted = Math.min(t.want, row.left);
      row.left -= granted;
      row.used += granted;
      return { granted, used: granted > 0 ? row.used : row.used + row.left, msLeft: row.msLeft };
    });
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
