import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { CredentialCache } from './auth/credential-cache';
import type { RateLimits } from './rate-limit';
import type { JobQueue } from '../jobs/queue';
import type { SecretBox } from './secret-box';

/** The long-lived parts a request handler may use; built once in main.ts (or by the test harness). */
export interface AppContext {
  config: Config;
  db: Database;
  log: Logger;
  credentials: CredentialCache;
  rateLimits: RateLimits;
  jobs: JobQueue;
  /** Encrypts secrets stored at rest with `SVC_ENCRYPTION_KEY`. */
  secrets: SecretBox;
  /** Set when SIGTERM arrives: `GET /v1/status` then answers 503 so balancers stop sending. */
  state: { shuttingDown: boolean };
}
