import { randomUUID } from 'node:crypto';
import type { Load } from '../measure';
import { seedHistory, vacuumSessions } from './history';
import { customerTokens, liveStream, openSessions, viewers } from './seed';
import { auth, ratio, type Context, type Scenario } from './types';

const VIEWERS = 1000;

/** Heartbeats round-robin over the open sessions, each with its own credentials and, optionally, a fresh Idempotency-Key. */
export function heartbeats(ids: string[], headersOf: (i: number) => Record<string, string>, keyed: boolean): Load['request'] {
  let n = 0;
  return () => {
    const i = n++ % ids.length;
    const headers = keyed ? { ...headersOf(i), 'idempotency-key': randomUUID() } : headersOf(i);
    return { method: 'POST', path: `/v1/access/sessions/${ids[i]}/heartbeat`, headers, body: '{}' };
  };
}

/**
 * A live show: 1,000 viewers of one stream, each with an entitlement and an open session, heartbeating from
 * the tenant's server (secret key; without and with an Idempotency-Key, which the SDKs no longer send on it) and
 * from browsers (publishable key and customer token, as the browser SDK sends them: no Idempotency-Key on a
 * heartbeat). Then the same after a million ended sessions of other viewers were stored, to show the cost does
 * not grow with history.
 */
export const heartbeat: Scenario = {
  name: 'heartbeat',
  run: async (ctx: Context, measure) => {
    const stream = await liveStream(ctx);
    const customers = await viewers(ctx, 'hb', VIEWERS, stream.id);
    const ids = await openSessions(ctx, stream.id, customers);
    const tokens = await customerTokens(ctx, customers);
    const server = () => auth(ctx);
    const browser = (i: number) => ({ 'svc-publishable-key': ctx.publishableKey, authorization: `Bearer ${tokens[i]}` });

    const keyed = await measure(heartbeats(ids, server, true));
    const fromBrowser = await measure(heartbeats(ids, browser, false));
    // The two runs compared for history go back to back, each on freshly vacuumed tables.
    await vacuumSessions(ctx);
    const plain = await measure(heartbeats(ids, server, false));
    await seedHistory(ctx, stream, ctx.bigHistory);
    const big = await measure(heartbeats(ids, server, false));
    const drift = (big.requestsPerSecond - plain.requestsPerSecond) / plain.requestsPerSecond;
    const stored = ctx.bigHistory.toLocaleString('en');
    return {
      results: [
        { name: 'heartbeat (1,000 sessions)', result: plain, target: ratio(1.0, 30) },
        // Not a target of its own: what a key costs (its answer is stored for 24 hours). The SDKs send none on a
        // heartbeat (the contract marks it `repeatable`); a caller may still pass one.
        { name: 'heartbeat, Idempotency-Key (caller\'s own)', result: keyed },
        { name: 'heartbeat, browser (customer token)', result: fromBrowser, target: ratio(1.0, 30) },
        {
          name: `heartbeat (+${stored} stored)`,
          result: big,
          target: { label: 'within 15 % of 1,000', met: (r) => Math.abs(drift) <= 0.15 && r.errors === 0 && r.non2xx === 0 },
        },
      ],
      notes: [`Heartbeats with ${stored} stored sessions: ${(drift * 100).toFixed(1)} % against 1,000.`],
    };
  },
};
