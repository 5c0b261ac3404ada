import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { CredentialCache } from './auth/credential-cache';
import type { CustomerTokenKeyCache } from './auth/customer-token-keys';
import type { RateLimits } from './rate-limit';
import type { JobQueue } from '../jobs/queue';
import type { SecretBox } from './secret-box';
import type { HostResolver } from './outbound/url-policy';
import type { VideoNetworks } from '../modules/streams/network/video-networks';
import type { EntitlementCache } from '../modules/access/entitlements/entitlement-cache';
import type { IdentityCaches } from '../modules/identity/identity-caches';

/** The long-lived parts a request handler may use; built once in main.ts (or by the test harness). */
export interface AppContext {
  config: Config;
  db: Database;
  log: Logger;
  credentials: CredentialCache;
  /** Customer token keys (Access), cached like API keys and dropped on revocation by every process. */
  customerTokenKeys: CustomerTokenKeyCache;
  /** Entitlements by customer and resource (Access checks and session opens), dropped on change by every process. */
  entitlementCache: EntitlementCache;
  /** Identity's sessions, member permissions, header tenants and signing keys, dropped on change by every process. */
  identity: IdentityCaches;
  rateLimits: RateLimits;
  jobs: JobQueue;
  /** Encrypts secrets stored at rest with `SVC_ENCRYPTION_KEY`. */
  secrets: SecretBox;
  /** The video networks Streams can use (`simulated` for test mode); see docs/decisions.md. */
  videoNetworks: VideoNetworks;
  /** The clock of time-driven rules (clip windows, retries); tests replace it. Absent: the system clock. */
  clock?: () => Date;
  /** DNS for outbound requests (webhook URLs); tests replace it to play DNS rebinding. Absent: the system resolver. */
  resolveHost?: HostResolver;
  /** Set when SIGTERM arrives: `GET /v1/status` then answers 503 so balancers stop sending. */
  state: { shuttingDown: boolean };
}
