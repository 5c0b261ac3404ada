import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from '../../core/outbound/url-policy';

/** Connects to `address` only: the host name is never resolved again, so a DNS answer cannot change under us. */
const pinnedLookup =
  (address: ResolvedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };

const MAX_AGENTS = 1000;
/** Idle connections close after this long (below the usual 5 s of Node's and many proxies' keep-alive). */
const IDLE_MS = 4000;

/**
 * Keep-alive agents, one per host name, port and checked address. Each connects only to its address, so a
 * reused connection always goes to the address this attempt's URL check just allowed, and a host whose DNS
 * answer changed gets another agent (the old one's connections are never used for it).
 */
export interface PinnedTarget {
  /** Keeps connections to the address for the next delivery. */
  agent: http.Agent;
  /** For a connection of its own to the same address. */
  lookup: LookupFunction;
}

export class WebhookAgents {
  private readonly agents = new Map<string, PinnedTarget>();

  for(url: URL, address: ResolvedAddress): PinnedTarget {
    const key = `${url.protocol}//${url.hostname}:${url.port}@${address.address}`;
    let target = this.agents.get(key);
    if (!target) {
      if (this.agents.size >= MAX_AGENTS) {
        const [oldestKey, oldest] = this.agents.entries().next().value!;
        oldest.agent.destroy();
        this.agents.delete(oldestKey);
      }
      const lookup = pinnedLookup(address);
      const options = { keepAlive: true, timeout: IDLE_MS, lookup };
      target = { agent: url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options), lookup };
      this.agents.set(key, target);
    }
    return target;
  }

  /** Closes every connection (when the worker stops). */
  destroy(): void {
    for (const { agent } of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
