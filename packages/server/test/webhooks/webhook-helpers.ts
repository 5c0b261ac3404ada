import { sql } from 'kysely';
import pino from 'pino';
import { expect } from 'vitest';
import type { EventType } from '@svc/contract';
import { emitEvent } from '../../src/core/events/emit-event';
import { deliverWebhook } from '../../src/modules/webhooks/enqueue-deliveries';
import { JobQueue } from '../../src/jobs/queue';
import { WebhookWorker } from '../../src/modules/webhooks/webhook-worker';
import type { WebhookWorkerDeps } from '../../src/modules/webhooks/webhook-worker-deps';
import { bearer, type TestServer } from '../harness';

/** A clock the test moves by hand; starts at the real time. */
export class FakeClock {
  private t = Date.now();
  readonly now = () => new Date(this.t);
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface RunningWorker {
  worker: WebhookWorker;
  jobs: JobQueue;
  clock: FakeClock;
  stop: () => Promise<void>;
}

/** A delivery worker on the test database, like the server's, with a fake clock and a fast retry scheduler. */
export async function startWorker(t: TestServer, deps: Partial<WebhookWorkerDeps> = {}): Promise<RunningWorker> {
  const clock = new FakeClock();
  const log = pino({ level: 'silent' });
  const jobs = new JobQueue(t.databaseUrl, log);
  const worker = new WebhookWorker({
    db: t.ctx.db,
    secrets: t.ctx.secrets,
    log,
    clock: clock.now,
    random: () => 0.5,
    schedulerIntervalMs: 100,
    ...deps,
  });
  worker.register(jobs);
  await jobs.start();
  worker.start();
  return {
    worker,
    jobs,
    clock,
    stop: async () => {
      await worker.stop();
      await jobs.stop(2_000);
    },
  };
}

export type Endpoint = Record<string, unknown> & { id: string; secret: string; url: string };

export async function createEndpoint(t: TestServer, key: string, body: object): Promise<Endpoint> {
  const res = await t.http().post('/v1/webhook_endpoints').set(bearer(key)).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

export async function attemptsOf(t: TestServer, key: string, endpointId: string) {
  const res = await t.http().get(`/v1/webhook_endpoints/${endpointId}/attempts?limit=100`).set(bearer(key));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Array<Record<string, unknown> & { attempt: number; succeeded: boolean; error: string | null }>;
}

/** Polls until `check` passes or `timeoutMs` elapses. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * Waits until no delivery job is due or running: every delivery queued so far was attempted. What a test
 * expects not to arrive then cannot arrive any more (retries wait for the delivery clock, which only the test moves).
 */
export async function deliveriesSettled(t: TestServer): Promise<void> {
  await eventually(async () => {
    const { rows } = await sql<{ n: string }>`
      select count(*) as n from pgboss.job
      where name = ${deliverWebhook.name} and state in ('created', 'retry', 'active') and start_after <= now()`.execute(t.ctx.db);
    expect(Number(rows[0]!.n)).toBe(0);
  });
}

/** Emits events straight through `emitEvent`, as a product's service would, in one transaction. */
export async function emit(t: TestServer, scope: { tenantId: string; livemode: boolean }, type: EventType, count = 1) {
  return t.ctx.db.transaction().execute(async (trx) => {
    const out = [];
    for (let i = 0; i < count; i++) {
      const subject = `ast_${i}_${Math.random().toString(36).slice(2, 8)}`;
      out.push(await emitEvent(trx, scope, { type, subject, object: { id: subject, object: 'asset', status: 'ready' } }));
    }
    return out;
  });
}
