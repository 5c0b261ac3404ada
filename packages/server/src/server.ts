import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from './config';
import { createApp } from './app';
import { CredentialCache } from './core/auth/credential-cache';
import type { AppContext } from './core/context';
import { NotificationListener } from './core/notify';
import { RateLimits } from './core/rate-limit';
import { parseEncryptionKey, SecretBox } from './core/secret-box';
import { createDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { purgeIdempotencyKeysJob } from './jobs/purge-idempotency-keys.job';
import { JobQueue } from './jobs/queue';

export interface RunningServer {
  ctx: AppContext;
  server: Server;
  url: string;
  /** Stops taking requests, lets running requests and jobs finish (up to the shutdown timeout), then closes connections. */
  stop: () => Promise<void>;
}

export async function startServer(
  config: Config & { DATABASE_URL: string; SVC_ENCRYPTION_KEY: string },
  log: Logger,
): Promise<RunningServer> {
  const { db } = createDatabase(config.DATABASE_URL);
  await migrateToLatest(db);
  const listener = new NotificationListener(config.DATABASE_URL, log);
  const credentials = new CredentialCache(listener);
  await listener.start();
  const jobs = new JobQueue(config.DATABASE_URL, log);
  jobs.register(purgeIdempotencyKeysJob(db));
  await jobs.start();

  const ctx: AppContext = {
    config,
    db,
    log,
    credentials,
    rateLimits: new RateLimits(config.SVC_RATE_LIMIT_PUBLIC),
    jobs,
    secrets: new SecretBox(parseEncryptionKey(config.SVC_ENCRYPTION_KEY)),
    state: { shuttingDown: false },
  };
  const app = createApp(ctx);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      ctx.state.shuttingDown = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // A keep-alive connection whose request finishes during the drain would otherwise stay open until it times out.
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      const force = setTimeout(() => server.closeAllConnections(), config.SVC_SHUTDOWN_TIMEOUT_MS);
      await closed;
      clearInterval(sweep);
      clearTimeout(force);
      await jobs.stop(config.SVC_SHUTDOWN_TIMEOUT_MS);
      await listener.stop();
      await db.destroy();
    })());
  return { ctx, server, url, stop };
}
