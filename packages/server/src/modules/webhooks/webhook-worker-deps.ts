import type { Logger } from 'pino';
import { classifyAddress, type HostResolver } from '../../core/outbound/url-policy';
import type { SecretBox } from '../../core/secret-box';
import type { Database } from '../../db/database';
import type { FreedSlots } from './freed-slots';
import type { WebhookAgents } from './webhook-agents';

/** What the delivery job and the retry scheduler run on; tests replace the clock, randomness and DNS. */
export interface WebhookWorkerDeps {
  db: Database;
  secrets: SecretBox;
  log: Logger;
  /** Decides when retries are due and how long an endpoint has been failing. Signatures use real time. */
  clock: () => Date;
  /** In [0, 1): the retry jitter. */
  random: () => number;
  resolveHost: HostResolver;
  /** Keep-alive connections to receivers, pinned to checked addresses. */
  agents: WebhookAgents;
  /** Wakes a delivery waiting for its endpoint's slot when this process's attempt frees one. */
  freedSlots: FreedSlots;
  timeoutMs: number;
  /** `deny`: test-mode endpoints on loopback addresses are refused at delivery too (`SVC_WEBHOOKS_PRIVATE_IN_TEST`). */
  privateInTest: 'allow' | 'deny';
  /**
   * Whether the attempt log may keep the response body of a receiver at this address. Only public ones: a test
   * key must not read a local service's answers through the attempt log. Tests replace it for their loopback receiver.
   */
  logsBodyFrom: (address: string) => boolean;
  concurrencyPerEndpoint: number;
  /** How long a concurrency slot stays held if its holder dies mid-request. */
  leaseSeconds: number;
  /** How often the scheduler looks for retries that are due. */
  schedulerIntervalMs: number;
}

export const DELIVERY_DEFAULTS = {
  timeoutMs: 10_000,
  privateInTest: 'allow',
  logsBodyFrom: (address: string) => classifyAddress(address) === 'public',
  concurrencyPerEndpoint: 10,
  // Three times the attempt's timeout: a crashed worker's slots free themselves well within a restart's minute.
  leaseSeconds: 30,
  schedulerIntervalMs: 5_000,
} as const;
