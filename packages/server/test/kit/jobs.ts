import { sql } from 'kysely';
import type { JobType } from '../../src/jobs/job-definition';
import type { TestServer } from '../harness';

/**
 * Waits until every job of `type` whose payload contains `payload` has run (completed or failed), and at
 * least one exists: a condition instead of a fixed sleep, for tests that expect a job to have changed nothing.
 */
export async function jobsRan(t: TestServer, type: JobType<any>, payload: object, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await sql<{ total: string; open: string }>`
      select count(*) as total, count(*) filter (where state not in ('completed', 'failed', 'cancelled')) as open
      from pgboss.job where name = ${type.name} and data @> ${JSON.stringify(payload)}::jsonb`.execute(t.ctx.db);
    if (Number(rows[0]!.total) > 0 && Number(rows[0]!.open) === 0) return;
    if (Date.now() > until) throw new Error(`${type.name} jobs with ${JSON.stringify(payload)} did not run within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
