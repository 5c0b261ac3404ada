import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { burst, count } from './rate-limit-fixtures';

/** Rows of the shared counts for one client IP's public bucket. */
const sharedRows = async (t: ReturnType<typeof useTestServer>, ip: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from rate_limit_buckets where bucket = ${`ip:${ip}`}`.execute(t.ctx.db)).rows[0]!.n;

describe('where rate limits are counted', () => {
  const shared = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '3', TRUST_PROXY: 'true' });
  const inProcess = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '3', TRUST_PROXY: 'true', SVC_RATE_LIMITS: 'process' });

  it('is the database by default, and memory with SVC_RATE_LIMITS=process: the same limit either way', async () => {
    for (const [server, ip, rows] of [
      [shared, '192.0.2.70', 1],
      [inProcess, '192.0.2.71', 0],
    ] as const) {
      // Eight at once fall in one or two one-second windows: 3 to 6 admitted, the rest refused.
      const responses = await burst(8, () => server.http().get('/v1/status').set('x-forwarded-for', ip));
      expect(count(responses, 200)).toBeGreaterThanOrEqual(3);
      expect(count(responses, 200)).toBeLessThanOrEqual(6);
      expect(count(responses, 429)).toBe(8 - count(responses, 200));
      expect(await sharedRows(server, ip)).toBe(rows);
    }
  });
});
