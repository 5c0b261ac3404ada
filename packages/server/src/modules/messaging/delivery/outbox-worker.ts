import { PeriodicTask } from '../../../core/periodic-task';
import type { JobDefinition } from '../../../jobs/queue';
import { jobOf, sendInTransaction } from '../../../jobs/send-in-transaction';
import { deliverMessage, queueDueMessages } from './deliver-message';
import { deliverMessageJob } from './deliver-message.job';
import type { MessagingDeps } from './messaging-deps';
import { sendRoleNotices } from '../outbox/role-notices';

const BATCH = 200;

/**
 * The outbox's delivery side: the job that makes one attempt per message, and the scheduler. Retries wait in
 * `messages` (`next_attempt_at`) rather than as delayed jobs so they follow the injectable clock; the scheduler
 * turns due ones into jobs, and also attempts whose lease ran out (their process died mid-send).
 */
export class OutboxWorker {
  private readonly periodic: PeriodicTask;

  constructor(readonly deps: MessagingDeps) {
    this.periodic = new PeriodicTask(
      () => this.tick(),
      this.deps.schedulerIntervalMs,
      (err) => this.deps.log.error({ err: err.message }, 'message scheduler failed'),
    );
  }

  job(): JobDefinition<{ messageId: string }> {
    return {
      ...deliverMessageJob,
      work: { workers: 1, batchSize: 10, pollingIntervalSeconds: 1 },
      handler: async (jobs) => {
        const results = await Promise.allSettled(jobs.map((j) => deliverMessage(this.deps, j.messageId)));
        const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        // pg-boss runs the batch again; messages already settled are skipped.
        if (failed) throw failed.reason;
      },
    };
  }

  /** Writes the role-addressed notices' messages, then queues every due message; returns how many it queued. */
  async tick(): Promise<number> {
    while ((await sendRoleNotices(this.deps.db, this.deps.roles, this.deps.log)) > 0);
    let total = 0;
    for (;;) {
      const n = await this.deps.db.transaction().execute(async (trx) => {
        const ids = await queueDueMessages(trx, this.deps.clock(), BATCH);
        await sendInTransaction(trx, ids.map((messageId) => jobOf(deliverMessageJob, { messageId })));
        return ids.length;
      });
      total += n;
      if (n < BATCH) return total;
    }
  }

  start(): void {
    this.periodic.start();
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }
}
