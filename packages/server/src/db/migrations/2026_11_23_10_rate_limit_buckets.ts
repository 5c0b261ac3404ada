import { type Kysely, sql } from 'kysely';

/**
 * `rate_limit_buckets`: the requests each rate-limit bucket took in its current one-second window (`used`), shared
 * by every process on the database; `granted` and `lim` are the last take's grant and limit. Unlogged: a crash loses at most a second of counts, and no write waits for the WAL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create unlogged table rate_limit_buckets (
      bucket text primary key,
      window_id bigint not null,
      used integer not null,
      granted integer not null,
      lim integer not null
    )
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table rate_limit_buckets`.execute(db);
}
