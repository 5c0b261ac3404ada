import type { Logger } from 'pino';
import type { Config } from './config';
import { CredentialCache } from '../core/auth/credential-cache';
import { CustomerTokenKeyCache } from '../core/auth/customer-token-keys';
import type { AppContext } from '../core/context';
import { NotificationListener } from '../core/notify';
import { RateLimits } from '../core/rate-limit';
import { PostgresRateStore } from '../core/shared-rate-store';
import { parseEncryptionKey, SecretBox } from '../core/secret-box';
import { createDatabase } from '../db/database';
import { JobQueue } from '../jobs/queue';
import type { ModuleDefinition } from '../core/modules/module-definition';
import type { WorkPlace } from '../jobs/job-definition';
import { subscribeToEvents } from '../core/events/event-subscribers';
import { MODULES } from '../modules';

export type ServerConfig = Config & { DATABASE_URL: string; SVC_ENCRYPTION_KEY: string };

/**
 * The long-lived parts of a server process on one database, built in one place for the server and the
 * tests alike: the pool, the LISTEN connection and the caches it invalidates, the job queue (not started), and
 * each module's parts.
 */
export async function createContext(
  config: ServerConfig,
  log: Logger,
  poolSize = 10,
  modules: readonly ModuleDefinition[] = MODULES,
  places?: readonly WorkPlace[],
): Promise<{ ctx: AppContext; listener: NotificationListener }> {
  // Through a transaction-mode pooler the pool cannot keep prepared statements, and LISTEN and pg-boss need a direct connection.
  const direct = config.DATABASE_DIRECT_URL ?? config.DATABASE_URL;
  const prepare = config.SVC_PREPARED_STATEMENTS === 'auto' ? direct === config.DATABASE_URL : config.SVC_PREPARED_STATEMENTS === 'on';
  const { db } = createDatabase(config.DATABASE_URL, poolSize, { prepare });
  const listener = new NotificationListener(direct, log);
  const ctx: AppContext = {
    config,
    db,
    log,
    credentials: new CredentialCache(listener),
    auth: {},
    customerTokenKeys: new CustomerTokenKeyCache(listener),
    rateLimits: new RateLimits(config.SVC_RATE_LIMIT_PUBLIC, config.SVC_RATE_LIMITS === 'shared' ? new PostgresRateStore(db) : undefined),
    jobs: new JobQueue(direct, log, places),
    secrets: new SecretBox(parseEncryptionKey(config.SVC_ENCRYPTION_KEY)),
    modules,
    parts: new Map(),
    state: { shuttingDown: false },
  };
  for (const module of modules) {
    module.setup?.(ctx, listener);
    if (module.onEvents) subscribeToEvents(module.onEvents);
  }
  await listener.start();
  return { ctx, listener };
}
