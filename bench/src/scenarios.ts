import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { type Api, pool } from './api';
import type { Load, Result } from './measure';
import type { Running } from './processes';

export interface Context {
  svc: Running;
  api: Api;
  secretKey: string;
  publishableKey: string;
  databaseUrl: string;
  tenantId: string;
  connections: number;
  durationSeconds: number;
  /** Stored sessions for the heartbeat-at-scale run. */
  bigHistory: number;
}

type Measure = (request: Load['request']) => Promise<Result>;
interface Target {
  label: string;
  met: (r: Result, ratioToWrite: number) => boolean;
}
export interface Outcome {
  results: Array<{ name: string; result: Result; target?: Target }>;
  notes?: string[];
}
export interface Scenario {
  name: string;
  run: (ctx: Context, measure: Measure) => Promise<Outcome>;
}

const auth = (ctx: Context) => ({ authorization: `Bearer ${ctx.secretKey}` });
const ratio = (min: number, p99Max?: number): Target => ({
  label: `≥ ${min}× write${p99Max ? `, p99 ≤ ${p99Max} ms` : ''}`,
  met: (r, x) => x >= min && (p99Max === undefined || r.p99Ms <= p99Max) && r.errors === 0 && r.non2xx === 0,
});

async function liveStream(ctx: Context, metadata: Record<string, string> = {}): Promise<string> {
  return (await ctx.api.call('POST', '/v1/streams/live_streams', { metadata })).data.id;
}

async function grant(ctx: Context, customer: string, resourceId: string, limits?: Record<string, unknown>): Promise<string> {
  const body = { customer, resource: { type: 'ls', id: resourceId }, source_ref: `bench-${randomUUID()}`, ...(limits ? { limits } : {}) };
  return (await ctx.api.call('POST', '/v1/access/entitlements', body, { 'idempotency-key': randomUUID() })).data.id;
}

async function openSessions(ctx: Context, streamId: string, customer: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  await pool(Array.from({ length: count }, (_, i) => i), 20, async (i) => {
    const { data } = await ctx.api.call('POST', '/v1/access/sessions', { resource: streamId, customer, device_id: `device-${i}` });
    ids.push(data.id);
  });
  return ids;
}

/** Round-robin heartbeats over open sessions. */
function heartbeats(ctx: Context, ids: string[]): Load['request'] {
  let i = 0;
  return () => ({ method: 'POST', path: `/v1/access/sessions/${ids[i++ % ids.length]}/heartbeat`, headers: auth(ctx), body: '{}' });
}

/** Copies of ended sessions, added with SQL so the history is large without a million API calls. */
async function seedHistory(ctx: Context, rows: number): Promise<void> {
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    const { rows: [template] } = await client.query(`SELECT * FROM access_sessions WHERE tenant_id = $1 LIMIT 1`, [ctx.tenantId]);
    if (!template) throw new Error('no session to copy');
    const columns = Object.keys(template).filter((c) => c !== 'id');
    const select = columns
      .map((c) => (c === 'state' ? `'ended'` : c === 'device_id' ? `'history-' || g` : c))
      .join(', ');
    for (let done = 0; done < rows; done += 100_000) {
      const n = Math.min(100_000, rows - done);
      await client.query(
        `INSERT INTO access_sessions (id, ${columns.join(', ')})
         SELECT 'as_hist' || lpad((g + ${done})::text, 20, '0'), ${select}
         FROM access_sessions, generate_series(1, ${n}) g WHERE access_sessions.id = $1`,
        [template.id],
      );
    }
    await client.query('ANALYZE access_sessions');
  } finally {
    await client.end();
  }
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'heartbeat',
    run: async (ctx, measure) => {
      const stream = await liveStream(ctx);
      await grant(ctx, 'hb-viewer', stream);
      const ids = await openSessions(ctx, stream, 'hb-viewer', 1000);
      const small = await measure(heartbeats(ctx, ids));
      await seedHistory(ctx, ctx.bigHistory);
      const big = await measure(heartbeats(ctx, ids));
      const within = Math.abs(big.requestsPerSecond - small.requestsPerSecond) / small.requestsPerSecond;
      return {
        results: [
          { name: 'heartbeat (1,000 sessions)', result: small, target: ratio(1.0, 30) },
          {
            name: `heartbeat (+${ctx.bigHistory.toLocaleString('en')} stored)`,
            result: big,
            target: { label: 'within 15 % of 1,000', met: () => within <= 0.15 },
          },
        ],
        notes: [`Heartbeat throughput with ${ctx.bigHistory.toLocaleString('en')} stored sessions differs by ${(within * 100).toFixed(1)} % from 1,000.`],
      };
    },
  },
  {
    name: 'session-open',
    run: async (ctx, measure) => {
      const stream = await liveStream(ctx);
      await grant(ctx, 'open-viewer', stream);
      await grant(ctx, 'replace-viewer', stream, { max_concurrent_sessions: 1, concurrency_policy: 'replace_oldest' });
      let n = 0;
      const fresh = await measure(() => ({
        method: 'POST',
        path: '/v1/access/sessions',
        headers: auth(ctx),
        body: JSON.stringify({ resource: stream, customer: 'open-viewer', device_id: `d-${n++}` }),
      }));
      const replace = await measure(() => ({
        method: 'POST',
        path: '/v1/access/sessions',
        headers: auth(ctx),
        body: JSON.stringify({ resource: stream, customer: 'replace-viewer', device_id: `r-${n++}` }),
      }));
      return {
        results: [
          { name: 'session open (new devices)', result: fresh, target: ratio(0.5) },
          { name: 'session open (replace_oldest)', result: replace, target: ratio(0.5) },
        ],
      };
    },
  },
  {
    name: 'access-check',
    run: async (ctx, measure) => {
      const stream = await liveStream(ctx);
      await grant(ctx, 'check-viewer', stream);
      const body = JSON.stringify({ customer: 'check-viewer', resource: { type: 'ls', id: stream } });
      const result = await measure(() => ({ method: 'POST', path: '/v1/access/check', headers: auth(ctx), body }));
      return { results: [{ name: 'access check', result, target: ratio(1.0) }] };
    },
  },
  {
    name: 'entitlement-grant',
    run: async (ctx, measure) => {
      const stream = await liveStream(ctx);
      let n = 0;
      const result = await measure(() => ({
        method: 'POST',
        path: '/v1/access/entitlements',
        headers: { ...auth(ctx), 'idempotency-key': randomUUID() },
        body: JSON.stringify({ customer: `grant-${n}`, resource: { type: 'ls', id: stream }, source_ref: `ref-${n++}` }),
      }));
      return { results: [{ name: 'entitlement grant', result, target: ratio(0.5) }] };
    },
  },
  {
    name: 'list-live-streams',
    run: async (ctx, measure) => {
      await pool(Array.from({ length: 200 }, (_, i) => i), 10, async (i) => {
        await liveStream(ctx, { tier: i % 4 === 0 ? 'gold' : 'standard' });
      });
      const result = await measure(() => ({ method: 'GET', path: '/v1/streams/live_streams?limit=20&metadata[tier]=gold', headers: auth(ctx) }));
      return { results: [{ name: 'list live streams (20, metadata filter)', result }] };
    },
  },
];
