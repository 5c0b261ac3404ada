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
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly deps: WebhookWorkerDeps) {}

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
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.tick()
        .then(() => undefined)
        .catch((err: Error) => this.deps.log.error({ err: err.message }, 'webhook retry scheduler failed'))
        .finally(() => (this.running = null));
    }, this.deps.schedulerIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
