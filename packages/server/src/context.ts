import type { Logger } from 'pino';
import type { Config } from './config';
import { CredentialCache } from './core/auth/credential-cache';
import { CustomerTokenKeyCache } from './core/auth/customer-token-keys';
import type { AppContext } from './core/context';
import { NotificationListener } from './core/notify';
import { RateLimits } from './core/rate-limit';
import { PostgresRateStore } from './core/shared-rate-store';
import { parseEncryptionKey, SecretBox } from './core/secret-box';
import { createDatabase } from './db/database';
import { JobQueue } from './jobs/queue';
import { EntitlementCache } from './modules/access/entitlements/entitlement-cache';
import { VideoNetworks } from './modules/streams/network/video-networks';

export type ServerConfig = Config & { DATABASE_URL: string; SVC_ENCRYPTION_KEY: string };

/**
 * The long-lived parts of a server process on one database, built in one place for the server and the
 * tests alike: the pool, the LISTEN connection and the caches it invalidates, the job queue (not started).
 */
export async function createContext(config: ServerConfig, log: Logger, poolSize = 10): Promise<{ ctx: AppContext; listener: NotificationListener }> {
  const { db } = createDatabase(config.DATABASE_URL, poolSize);
  const listener = new NotificationListener(config.DATABASE_URL, log);
  const ctx: AppContext = {
    config,
    db,
    log,
    credentials: new CredentialCache(listener),
    customerTokenKeys: new CustomerTokenKeyCache(listener),
    entitlementCache: new EntitlementCache(listener),
    rateLimits: new RateLimits(config.SVC_RATE_LIMIT_PUBLIC, new PostgresRateStore(db)),
    jobs: new JobQueue(config.DATABASE_URL, log),
    secrets: new SecretBox(parseEncryptionKey(config.SVC_ENCRYPTION_KEY)),
    videoNetworks: VideoNetworks.forServer(config.baseUrl),
    state: { shuttingDown: false },
  };
  await listener.start();
  return { ctx, listener };
}
