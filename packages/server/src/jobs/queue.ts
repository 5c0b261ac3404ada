import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { NotificationListener } from '../core/notify';
import { pgConnection } from '../db/session-target';
import { queuePolicy, type JobDefinition, type JobType, type WorkPlace } from './job-definition';

export type { JobDefinition } from './job-definition';

/**
 * How often pg-boss looks for expired jobs (and archives finished ones), across all processes: a job lost in a
 * crash runs again at most this long after its expiry.
 */
export const MAINTENANCE_INTERVAL_SECONDS = 10;

/** pg-boss's schema; jobs sent inside a transaction (`send-in-transaction.ts`) write to it too. */
export const JOB_SCHEMA = 'pgboss';

/** `NOTIFY`'d with a queue's name when a transaction that sent it jobs to run now commits. */
export const JOBS_CHANNEL = 'svc_jobs';
/** At most one wake-up per queue this often (the polling interval is 500 ms or more). */
const WAKE_EVERY_MS = 25;

/**
 * pg-boss, started with the server and stopped gracefully with it. Definitions are registered before
 * start; each gets its queue created first, since pg-boss drops a send to an unknown queue.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly definitions: JobDefinition<any>[] = [];
  private readonly workerIds = new Map<string, string[]>();
  private readonly wakeTimers = new Map<string, NodeJS.Timeout>();
  private started = false;

  /**
   * `places`: which jobs this process works (`SVC_ROLE`); a process that works none (an API process) only sends,
   * and leaves pg-boss's maintenance and cron to the processes that work.
   */
  constructor(
    connectionString: string,
    private readonly log: Logger,
    private readonly places: readonly WorkPlace[] = ['api', 'worker', 'media'],
  ) {
    const works = places.some((p) => p !== 'api');
    this.boss = new PgBoss({
      ...pgConnection(connectionString),
      schema: JOB_SCHEMA,
      max: works ? 4 : 1,
      maintenanceIntervalSeconds: MAINTENANCE_INTERVAL_SECONDS,
      supervise: works,
      schedule: works,
    });
    this.boss.on('error', (err) => log.error({ err: err.message }, 'job queue error'));
  }

  register<T extends object>(definition: JobDefinition<T>): void {
    this.definitions.push(definition);
  }

  async start(): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const d of this.definitions) {
      await this.ensureQueue({ name: d.name, ...queuePolicy(d) });
      if (!this.places.includes(d.runsIn ?? 'worker')) continue;
      const { workers = 1, ...workOptions } = d.work ?? {};
      const ids: string[] = [];
      for (let i = 0; i < workers; i++) {
        let id = '';
        id = await this.boss.work<object>(d.name, workOptions, async (jobs) => {
          await d.handler(this.payloadsOf(d, jobs));
          // pg-boss waits out its polling interval even after a full batch; a backlog drains at the handler's pace instead.
          if (jobs.length >= (workOptions.batchSize ?? 1)) this.boss.notifyWorker(id);
        });
        ids.push(id);
      }
      this.workerIds.set(d.name, ids);
      if (d.schedule) await this.boss.schedule(d.name, d.schedule, {}, { tz: 'UTC' });
    }
  }

  /** The batch's payloads that match the job's schema; one that does not can never succeed, so it is logged and dropped. */
  private payloadsOf<T extends object>(d: JobDefinition<T>, jobs: Array<{ id: string; data: object }>): T[] {
    const payloads: T[] = [];
    for (const job of jobs) {
      const parsed = d.payload.safeParse(job.data ?? {});
      if (parsed.success) payloads.push(parsed.data);
      else this.log.error({ job: d.name, id: job.id, issues: parsed.error.issues.length }, 'job payload does not match its schema');
    }
    return payloads;
  }

  /**
   * Creates the queue if it is missing, then sets its options (a queue created earlier, by an older version or
   * `prepareJobQueues`, keeps its own otherwise). Processes starting together on a new database can deadlock in
   * pg-boss's queue creation (each adds a partition under a lock the other holds); the loser tries again.
   */
  private async ensureQueue(options: PgBoss.Queue): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        if (!(await this.boss.getQueue(options.name))) await this.boss.createQueue(options.name, options);
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== '40P01' || attempt >= 5) throw err;
        await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 100));
      }
    }
    await this.boss.updateQueue(options.name, options);
  }

  /**
   * Fetches now rather than at the next poll: `name`'s workers in this process look for jobs at once. Wake-ups
   * coming faster than one per `WAKE_EVERY_MS` are merged, so jobs arriving one by one are fetched in batches.
   */
  wake(name: string): void {
    if (!this.started || this.wakeTimers.has(name)) return;
    for (const id of this.workerIds.get(name) ?? []) this.boss.notifyWorker(id);
    const timer = setTimeout(() => this.wakeTimers.delete(name), WAKE_EVERY_MS);
    timer.unref();
    this.wakeTimers.set(name, timer);
  }

  /**
   * Wakes this process's workers when any process commits jobs for them (`sendInTransaction` notifies), so a
   * job waits for a worker, not for the polling interval; without a listener the polling still finds it.
   */
  wakeOn(listener: NotificationListener): void {
    listener.on(JOBS_CHANNEL, (name) => this.wake(name));
  }

  /** Sends a job outside any transaction; the payload is checked against the type's schema first. */
  async send<P extends object>(type: JobType<P>, data: P): Promise<string | null> {
    return this.boss.send(type.name, type.payload.parse(data), queuePolicy(type));
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
