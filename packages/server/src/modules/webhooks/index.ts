import type { ModuleDefinition } from '../../core/modules/module-definition';
import { recordAndDeliver } from './enqueue-deliveries';
import { eventLogRouter } from './event-log/event-log.router';
import { purgeEventsJob } from './event-log/purge-events.job';
import { webhookEndpointsRouter } from './webhook-endpoints.router';
import { WebhookWorker } from './webhook-worker';

/**
 * The event log and webhook delivery. Core emits events; this module subscribes: it records each event in the
 * log and queues its deliveries in the emitting transaction.
 */
export const webhooksModule: ModuleDefinition = {
  name: 'webhooks',
  routers: (ctx) => ({ webhookEndpoints: webhookEndpointsRouter(ctx), eventLog: eventLogRouter(ctx) }),
  onEvents: recordAndDeliver,
  jobs: (ctx) => [purgeEventsJob(ctx.db)],
  worker: (ctx) => {
    const worker = new WebhookWorker({ db: ctx.db, secrets: ctx.secrets, log: ctx.log, clock: ctx.clock, resolveHost: ctx.resolveHost, privateInTest: ctx.config.SVC_WEBHOOKS_PRIVATE_IN_TEST });
    return {
      jobs: [worker.deliverJob()],
      start: () => worker.start(),
      stop: () => worker.stop(),
      close: () => worker.closeConnections(),
    };
  },
};
