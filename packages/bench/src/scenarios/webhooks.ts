import { randomUUID } from 'node:crypto';
import { postgresCpu, postgresCpuSince } from '../processes';
import { liveStream } from './seed';
import { Receiver } from './receiver';
import { RSS_LIMIT_MB, type Context, type Scenario } from './types';

const ENDPOINTS = 5;
const DRAIN_LIMIT_MS = 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : 0);

/** Grants at a steady pace for `seconds`: each emits `access.entitlement.granted`, fanned out to every endpoint. */
async function emitAtPace(ctx: Context, streamId: string, eventsPerSecond: number, seconds: number) {
  let sent = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const started = Date.now();
  while (Date.now() - started < seconds * 1000) {
    const due = Math.floor(((Date.now() - started) / 1000) * eventsPerSecond);
    for (; sent < due; sent++) {
      const body = { customer: `hook-${sent}`, resource: { type: 'ls', id: streamId }, source_ref: `hook-${sent}` };
      const p: Promise<void> = ctx.api
        .call('POST', '/v1/access/entitlements', body, { 'idempotency-key': randomUUID() })
        .then(() => undefined, () => void (failed += 1))
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await sleep(5);
  }
  await Promise.all(inFlight);
  return { sent, failed, started, seconds: (Date.now() - started) / 1000 };
}

/**
 * Webhook fan-out: five test-mode endpoints on a local receiver subscribe to `access.entitlement.granted`;
 * grants are made at a steady pace so that `webhookRate` deliveries per second are due. Every delivery's
 * signature is verified; latency is from the event's `created_at` to its arrival.
 */
export const webhookFanOut: Scenario = {
  name: 'webhook-fan-out',
  run: async (ctx) => {
    const receiver = new Receiver();
    const base = await receiver.start();
    const endpoints: Array<{ id: string; secret: string }> = [];
    try {
      for (let i = 0; i < ENDPOINTS; i++) {
        const { data } = await ctx.api.call('POST', '/v1/webhook_endpoints', { url: `${base}/hook/${i}`, enabled_events: ['access.entitlement.granted'] });
        endpoints.push({ id: data.id, secret: data.secret });
      }
      receiver.setSecrets(endpoints.map((e) => e.secret));
      const stream = await liveStream(ctx);
      let peak = ctx.svc.rssMb();
      const sampler = setInterval(() => (peak = Math.max(peak, ctx.svc.rssMb())), 200);
      const cpuBefore = ctx.svc.cpuSeconds();
      const postgresBefore = postgresCpu();
      const emitted = await emitAtPace(ctx, stream.id, ctx.webhookRate / ENDPOINTS, ctx.durationSeconds);
      const expected = (emitted.sent - emitted.failed) * ENDPOINTS;
      const drainStart = Date.now();
      while (receiver.seen.size < expected && Date.now() - drainStart < DRAIN_LIMIT_MS) await sleep(50);
      clearInterval(sampler);
      const cpu = ctx.svc.cpuSeconds() - cpuBefore;
      const postgresSeconds = postgresCpuSince(postgresBefore);

      const sorted = [...receiver.latenciesMs].sort((a, b) => a - b);
      const delivered = receiver.seen.size;
      // From the first grant to the last arrival: a backlog that drains after the grants stop lowers the rate.
      const perSecond = Math.round(delivered / Math.max(emitted.seconds, (receiver.lastAt - emitted.started) / 1000));
      const missing = expected - delivered;
      const result = {
        requestsPerSecond: perSecond,
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
        maxMs: sorted.at(-1) ?? 0,
        errors: emitted.failed + receiver.badSignatures + missing,
        non2xx: 0,
        peakRssMb: Math.round(peak),
        total: delivered,
        // Per delivery, with the grants that caused them (one grant is five deliveries).
        cpuUsPerRequest: delivered > 0 ? Math.round((cpu * 1e6) / delivered) : 0,
        cpuPercent: Math.round((cpu / ((Date.now() - emitted.started) / 1000)) * 100),
        postgresCpuPercent: Math.round((postgresSeconds / ((Date.now() - emitted.started) / 1000)) * 100),
      };
      return {
        results: [
          {
            name: `webhook fan-out (${ENDPOINTS} endpoints), deliveries`,
            result,
            target: {
              label: '≥ 1,000/s, p50 ≤ 250 ms',
              met: (r) => r.requestsPerSecond >= 1000 && r.p50Ms <= 250 && r.errors === 0 && r.peakRssMb <= RSS_LIMIT_MB,
            },
          },
        ],
        notes: [
          `Webhook fan-out: ${(emitted.sent / emitted.seconds).toFixed(0)} events/s emitted for ${emitted.seconds.toFixed(1)} s, ` +
            `${delivered} of ${expected} deliveries arrived signed (${receiver.duplicates} duplicates, ${receiver.badSignatures} bad signatures); ` +
            `emit→delivered p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms.`,
        ],
      };
    } finally {
      for (const e of endpoints) await ctx.api.call('DELETE', `/v1/webhook_endpoints/${e.id}`).catch(() => {});
      await receiver.stop();
    }
  },
};
