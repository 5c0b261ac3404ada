import { heartbeats } from './heartbeat';
import { customerTokens, liveStream, openSessions, viewers } from './seed';
import type { Scenario } from './types';

const VIEWERS = 1000;
/**
 * A publishable key's default limit per viewer (the contract's `LIMITS.rateLimits.publishable`): a process's share
 * of it (5 %) is a single request, so every request takes from the shared count.
 */
const PER_VIEWER = 20;

/**
 * What counting rate limits in the database costs. Browser heartbeats (publishable key and customer token: one
 * bucket per viewer) at the default per-viewer limit, where a process's in-memory share of a bucket is a single
 * request, so every request takes from the shared count: once on the bench server (`SVC_RATE_LIMITS=shared`, the
 * default) and once on a second server process on the same database counting in memory only
 * (`SVC_RATE_LIMITS=process`). The difference is the price of the shared count on the path that pays it most;
 * keys with large limits (the secret-key rows) reserve 5 % of their limit at a time and pay it once per share.
 */
export const rateLimits: Scenario = {
  name: 'rate-limits',
  run: async (ctx, measure) => {
    const stream = await liveStream(ctx);
    const customers = await viewers(ctx, 'rl', VIEWERS, stream.id);
    const ids = await openSessions(ctx, stream.id, customers);
    const tokens = await customerTokens(ctx, customers);
    const browser = (i: number) => ({ 'svc-publishable-key': ctx.publishableKey, authorization: `Bearer ${tokens[i]}` });
    const plan = (publishable: number) => ctx.operator.call('PATCH', `/v1/operator/tenants/${ctx.tenantId}`, { rate_limits: { secret: 100_000, publishable } });
    await plan(PER_VIEWER);
    try {
      const shared = await measure(heartbeats(ids, browser, false));
      const other = await ctx.another({ SVC_RATE_LIMITS: 'process' });
      const inProcess = await other.measure(heartbeats(ids, browser, false)).finally(() => other.running.stop());
      const extraCpu = shared.cpuUsPerRequest - inProcess.cpuUsPerRequest;
      const label = `browser heartbeat, ${PER_VIEWER}/s per viewer`;
      return {
        results: [
          { name: `${label}, shared counts`, result: shared },
          { name: `${label}, in-process counts`, result: inProcess },
        ],
        notes: [
          `Shared rate limits (browser heartbeats, ${PER_VIEWER}/s per viewer, one shared take per request): ` +
            `${shared.requestsPerSecond} against ${inProcess.requestsPerSecond} requests/s counted in process ` +
            `(${(((shared.requestsPerSecond - inProcess.requestsPerSecond) / inProcess.requestsPerSecond) * 100).toFixed(1)} %), ` +
            `${extraCpu >= 0 ? '+' : ''}${extraCpu} µs of server CPU per request, PostgreSQL at ${shared.postgresCpuPercent} % against ${inProcess.postgresCpuPercent} % of a core.`,
        ],
      };
    } finally {
      await plan(100_000);
    }
  },
};
