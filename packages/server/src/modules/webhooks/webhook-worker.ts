import type { Logger } from 'pino';
import { systemResolver } from '../../core/outbound/url-policy';
import type { SecretBox } from '../../core/secret-box';
import type { Database } from '../../db/database';
import type { JobQueue } from '../../jobs/queue';
import { FreedSlots } from './freed-slots';
import { deliverWebhookJob } from './deliver-webhook.job';
import { RetryScheduler } from './retry-scheduler';
import { WebhookAgents } from './webhook-agents';
import { DELIVERY_DEFAULTS, type WebhookWorkerDeps } from './webhook-worker-deps';

/** The delivery side of webhooks: the deliver job (registered before the queue starts) and the retry scheduler. */
export class WebhookWorker {
  readonly deps: WebhookWorkerDeps;
  readonly scheduler: RetryScheduler;

  constructor(base: { db: Database; secrets: SecretBox; log: Logger } & Partial<WebhookWorkerDeps>) {
    const given = Object.fromEntries(Object.entries(base).filter(([, v]) => v !== undefined)) as typeof base;
    this.deps = { clock: () => new Date(), random: Math.random, resolveHost: systemResolver, agents: new WebhookAgents(), freedSlots: new FreedSlots(), ...DELIVERY_DEFAULTS, ...given };
    this.scheduler = new RetryScheduler(this.deps);
  }

  register(jobs: JobQueue): void {
    jobs.register(this.deliverJob());
  }

  deliverJob() {
    return deliverWebhookJob(this.deps);
  }

  /** After the job queue started. */
  start(): void {
    this.scheduler.start();
  }

  /** After the job queue stopped: no attempt runs any more, so kept connections can go. */
  async stop(): Promise<void> {
    await this.scheduler.stop();
  }

  closeConnections(): void {
    this.deps.agents.destroy();
  }
}
