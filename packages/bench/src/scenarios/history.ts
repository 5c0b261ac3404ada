import pg from 'pg';
import type { Context } from './types';

const CHUNK = 200_000;

/**
 * Vacuums what the heartbeat runs write and takes a checkpoint, so the runs compared (1,000 sessions, then the
 * same after the history is stored) start from the same state: neither meets autovacuum halfway, and neither
 * pays for a checkpoint the other did not (after one, the first change to each page writes the whole page to
 * the WAL).
 */
export async function vacuumSessions(ctx: Context): Promise<void> {
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    await client.query('VACUUM ANALYZE access_sessions');
    await client.query('VACUUM ANALYZE idempotency_keys');
    await client.query('VACUUM ANALYZE entitlements');
    await client.query('CHECKPOINT');
  } finally {
    await client.end();
  }
}

/**
 * `rows` ended sessions of other viewers, added with SQL so the history is large without a million API calls:
 * spread over one entitlement per 20 sessions, across the last 30 days, on the stream's playback id.
 */
export async function seedHistory(ctx: Context, stream: { id: string; playbackId: string }, rows: number): Promise<void> {
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    const entitlements = Math.max(1, Math.ceil(rows / 20));
    await client.query(
      `INSERT INTO entitlements (id, tenant_id, livemode, customer, resource_type, resource_id, source, source_ref, limits, status, created_at, updated_at)
       SELECT 'ent_hist' || lpad(g::text, 18, '0'), $1, false, 'history-' || g, 'ls', $2, 'bench', 'history-' || g,
              '{"max_devices":null,"max_concurrent_sessions":null,"concurrency_policy":"replace_oldest","max_views":null,"allowed_countries":null,"allowed_domains":null}',
              'active', now() - interval '31 days', now() - interval '31 days'
       FROM generate_series(1, $3::int) g`,
      [ctx.tenantId, stream.id, entitlements],
    );
    for (let done = 0; done < rows; done += CHUNK) {
      const n = Math.min(CHUNK, rows - done);
      await client.query(
        `INSERT INTO access_sessions (id, tenant_id, livemode, entitlement_id, customer, resource_type, resource_id, device_id, state,
                                      ended_reason, playback_id, playback_policy, provider, last_heartbeat_at, expires_at, created_at, ended_at)
         SELECT 'as_hist' || lpad(s.g::text, 19, '0'), $1, false, 'ent_hist' || lpad((1 + s.g % $3::int)::text, 18, '0'),
                'history-' || (1 + s.g % $3::int), 'ls', $2, 'history-device-' || s.g, 'ended', 'client', $4, 'signed', 'simulated',
                s.at + interval '20 minutes', s.at + interval '21 minutes', s.at, s.at + interval '20 minutes'
         FROM (SELECT g, now() - interval '30 days' * random() AS at FROM generate_series($5::int, $6::int) g) s`,
        [ctx.tenantId, stream.id, entitlements, stream.playbackId, done + 1, done + n],
      );
    }
  } finally {
    await client.end();
  }
  await vacuumSessions(ctx);
}
