import { PeriodicTask } from '../../core/periodic-task';
import { sendInTransaction } from '../../jobs/send-in-transaction';
import { deliveryJobs } from './enqueue-deliveries';
import { queueDueDeliveries } from './webhook-deliveries.repository';
import type { WebhookWorkerDeps } from './webhook-worker-deps';

const BATCH = 500;

/**
 * Queues retries whose time has come by the delivery clock. Retries wait in `webhook_deliveries` rather
 * than as delayed jobs so the schedule follows an injectable clock; several processes may run this at once.
 */
export class RetryScheduler {
  private readonly periodic: PeriodicTask;

  constructor(private readonly deps: WebhookWorkerDeps) {
    this.periodic = new PeriodicTask(
      () => this.tick(),
      this.deps.schedulerIntervalMs,
      (err) => this.deps.log.error({ err: err.message }, 'webhook retry scheduler failed'),
    );
  }

  /** Queues every due retry; returns how many. */
  async tick(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.deps.db.transaction().execute(async (trx) => {
        const ids = await queueDueDeliveries(trx, this.deps.clock(), BATCH);
        await sendInTransaction(trx, deliveryJobs(ids));
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
