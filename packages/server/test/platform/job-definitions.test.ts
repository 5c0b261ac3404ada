import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { definedJobTypes, defineJob } from '../../src/jobs/job-definition';
import { jobOf, sendInTransaction } from '../../src/jobs/send-in-transaction';
import { MODULES } from '../../src/modules';
import { cutMomentClipJobType } from '../../src/modules/streams/moments/moment-clips';
import { useTestServer } from '../harness';

const t = useTestServer();

const queued = async (name: string) =>
  Number((await sql<{ n: string }>`select count(*) as n from pgboss.job where name = ${name}`.execute(t.ctx.db)).rows[0]!.n);

describe('Job definitions', () => {
  it('name every queue: each module job is a defined type with a version, a payload schema and a retry policy', () => {
    const names = definedJobTypes().map((j) => j.name);
    for (const job of MODULES.flatMap((m) => [...(m.jobs?.(t.ctx) ?? []), ...(m.worker?.(t.ctx).jobs ?? [])])) {
      expect(names).toContain(job.name);
      expect(job.version).toBeGreaterThanOrEqual(1);
      expect(job.retry.limit).toBeGreaterThanOrEqual(0);
      expect(typeof job.payload.safeParse).toBe('function');
    }
    expect(new Set(names).size).toBe(names.length);
    expect(() => defineJob({ ...cutMomentClipJobType, version: 9 })).toThrow(/defined twice/);
  });

  it('refuses to send a payload its schema does not take, and sends nothing of the transaction', async () => {
    const before = await queued(cutMomentClipJobType.name);
    const bad = { tenant_id: 'ten_x', livemode: false, moment_id: 'mom_x', attempt: 0 };
    await expect(
      t.ctx.db.transaction().execute((trx) => sendInTransaction(trx, [jobOf(cutMomentClipJobType, { ...bad, attempt: 1 }), jobOf(cutMomentClipJobType, bad)])),
    ).rejects.toThrow();
    expect(await queued(cutMomentClipJobType.name)).toBe(before);

    await t.ctx.db.transaction().execute((trx) => sendInTransaction(trx, [jobOf(cutMomentClipJobType, { ...bad, attempt: 1 }, 3600)]));
    expect(await queued(cutMomentClipJobType.name)).toBe(before + 1);
  });

  it('sends a job with its type\'s retry policy', async () => {
    const type = defineJob({ name: 'test-retry-policy', version: 1, payload: z.object({ n: z.number() }), retry: { limit: 5, delaySeconds: 7, backoff: true } });
    const { prepareJobQueues } = await import('../../src/jobs/prepare-job-queues');
    await prepareJobQueues(t.databaseUrl, [type]);
    await t.ctx.db.transaction().execute((trx) => sendInTransaction(trx, [jobOf(type, { n: 1 }, 3600)]));
    const { rows } = await sql<{ retry_limit: number; retry_delay: number; retry_backoff: boolean; data: unknown }>`
      select retry_limit, retry_delay, retry_backoff, data from pgboss.job where name = ${type.name}`.execute(t.ctx.db);
    expect(rows).toEqual([{ retry_limit: 5, retry_delay: 7, retry_backoff: true, data: { n: 1 } }]);
  });

  it('sends a job with its type\'s expiry, or 60 s when the type names none', async () => {
    const named = defineJob({ name: 'test-expiry-named', version: 1, payload: z.object({}), retry: { limit: 0 }, expireInSeconds: 45 });
    const unnamed = defineJob({ name: 'test-expiry-default', version: 1, payload: z.object({}), retry: { limit: 0 } });
    const { prepareJobQueues } = await import('../../src/jobs/prepare-job-queues');
    await prepareJobQueues(t.databaseUrl, [named, unnamed]);
    await t.ctx.db.transaction().execute((trx) => sendInTransaction(trx, [jobOf(named, {}, 3600), jobOf(unnamed, {}, 3600)]));
    const { rows } = await sql<{ name: string; seconds: number }>`
      select name, extract(epoch from expire_in)::int as seconds from pgboss.job where name in (${named.name}, ${unnamed.name}) order by name`.execute(t.ctx.db);
    expect(rows).toEqual([{ name: unnamed.name, seconds: 60 }, { name: named.name, seconds: 45 }]);
  });

  it('starts with each queue\'s expiry updated, for queues created before with another', async () => {
    const type = defineJob({ name: 'test-expiry-updated', version: 1, payload: z.object({}), retry: { limit: 1 }, expireInSeconds: 30 });
    const { prepareJobQueues } = await import('../../src/jobs/prepare-job-queues');
    await prepareJobQueues(t.databaseUrl, [{ ...type, expireInSeconds: 900 }]);
    const { JobQueue } = await import('../../src/jobs/queue');
    const queue = new JobQueue(t.databaseUrl, t.ctx.log);
    queue.register({ ...type, handler: async () => {} });
    await queue.start();
    try {
      const { rows } = await sql<{ expire_seconds: number; retry_limit: number }>`
        select expire_seconds, retry_limit from pgboss.queue where name = ${type.name}`.execute(t.ctx.db);
      expect(rows).toEqual([{ expire_seconds: 30, retry_limit: 1 }]);
    } finally {
      await queue.stop();
    }
  });
});
