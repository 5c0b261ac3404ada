import PgBoss from 'pg-boss';
import type { Logger } from 'pino';

/** A background job: a name, optionally a cron schedule, and a handler that is safe to run twice. */
export interface JobDefinition<T extends object = object> {
  name: string;
  /** Cron expression (UTC) for jobs the queue starts by itself. */
  schedule?: string;
  handler: (data: T[]) => Promise<void>;
  /** How jobs are fetched: `workers` polling loops, each taking up to `batchSize` jobs every `pollingIntervalSeconds`. */
  work?: { workers?: number; batchSize?: number; pollingIntervalSeconds?: number };
}

/** pg-boss's schema; jobs sent inside a transaction (`send-in-transaction.ts`) write to it too. */
export const JOB_SCHEMA = 'pgboss';

/**
 * pg-boss, started with the server and stopped gracefully with it. Definitions are registered before
 * start; each gets its queue created first, since pg-boss drops a send to an unknown queue.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly definitions: JobDefinition<any>[] = [];
  private started = false;

  constructor(connectionString: string, private readonly log: Logger) {
    this.boss = new PgBoss({ connectionString, schema: JOB_SCHEMA, max: 4 });
    this.boss.on('error', (err) => log.error({ err: err.message }, 'job queue error'));
  }

  register<T extends object>(definition: JobDefinition<T>): void {
    this.definitions.push(definition);
  }

  async start(): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const d of this.definitions) {
      await this.boss.createQueue(d.name);
      const { workers = 1, ...workOptions } = d.work ?? {};
      for (let i = 0; i < workers; i++) {
        await this.boss.work<object>(d.name, workOptions, async (jobs) => {
          await d.handler(jobs.map((j) => j.data));
        });
      }
      if (d.schedule) await this.boss.schedule(d.name, d.schedule, {}, { tz: 'UTC' });
    }
  }

  async send(name: string, data: object): Promise<string | null> {
    return this.boss.send(name, data);
  }

  /** Waits for running jobs to finish (up to `timeoutMs`), then closes the queue's connections. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
  }

  get pgBoss(): PgBoss {
    return this.boss;
  }
}
