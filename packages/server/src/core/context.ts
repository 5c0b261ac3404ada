import type { Logger } from 'pino';
import type { Config } from '../boot/config';
import type { Database } from '../db/database';
import type { CredentialCache } from './auth/credential-cache';
import type { AuthSlots } from './auth/credential-resolver';
import type { CustomerTokenKeyCache } from './auth/customer-token-keys';
import type { RateLimits } from './rate-limit';
import type { JobQueue } from '../jobs/queue';
import type { SecretBox } from './secret-box';
import type { HostResolver } from './outbound/url-policy';
import type { ModuleDefinition } from './modules/module-definition';
import type { DomainProbe, WhitelabelSlot } from './branding';

/** The long-lived parts a request handler may use; built once per process in boot/context.ts (or by the test harness). */
export interface AppContext {
  config: Config;
  db: Database;
  log: Logger;
  credentials: CredentialCache;
  /** What modules plug into authentication (access tokens, tenant codes); filled as modules are installed. */
  auth: AuthSlots;
  /** Customer token keys (Access), cached like API keys and dropped on revocation by every process. */
  customerTokenKeys: CustomerTokenKeyCache;
  rateLimits: RateLimits;
  jobs: JobQueue;
  /** Encrypts secrets stored at rest with `SVC_ENCRYPTION_KEY`. */
  secrets: SecretBox;
  /** The product modules this context serves (`modules/index.ts` in production). */
  modules: readonly ModuleDefinition[];
  /** Each module's long-lived parts, by `modulePart` (Streams' video networks, Access's entitlement cache). */
  parts: Map<string, unknown>;
  /** The clock of time-driven rules (clip windows, retries); tests replace it. Absent: the system clock. */
  clock?: () => Date;
  /** DNS for outbound requests (webhook URLs); tests replace it to play DNS rebinding. Absent: the system resolver. */
  resolveHost?: HostResolver;
  /** How custom domains are checked (DNS TXT, the host's routing); tests replace it. Absent: the system's DNS and HTTPS. */
  domainProbe?: DomainProbe;
  /** Branding and custom domains, filled by the whitelabel module; absent, pages and messages are neutral. */
  whitelabel?: WhitelabelSlot;
  /** Set when SIGTERM arrives: `GET /v1/status` then answers 503 so balancers stop sending. */
  state: { shuttingDown: boolean };
}
