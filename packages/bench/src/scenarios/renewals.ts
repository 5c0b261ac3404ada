import { pool } from '../api';
import { withClient } from './organizer-seed';
import { grant, liveStream } from './seed';
import { auth, ratio, type Context, type Scenario } from './types';

const VIEWERS = 1000;
const WAIT_LIMIT_MS = Number(process.env.BENCH_RENEWALS_WAIT_MINUTES ?? 30) * 60_000;

/** A creator organization with a fanbase and a published monthly tier (KES 500) granting the stream. */
async function goldTier(ctx: Context, stream: string) {
  const handle = `bench.fans.${Date.now() % 1_000_000}`;
  const { data: org } = await ctx.api.call('POST', '/v1/organizations', { name: 'Bench Fans', handle, kind: 'creator' });
  const { data: fanbase } = await ctx.api.call('POST', '/v1/fanbases', { organization: org.id, name: 'Bench fans', currency: 'KES' });
  const { data: tier } = await ctx.api.call('POST', `/v1/fanbases/${fanbase.id}/tiers`, {
    name: 'Gold', price: 50_000, interval: 'month', status: 'published', grants: [{ type: 'ls', id: stream }],
  });
  return { org: org.id as string, fanbase: fanbase.id as string, tier: tier.id as string };
}

/**
 * `count` active subscriptions of the tier whose renewal notice is due now (their period ends within the next
 * day and an hour), with their customers and memberships, seeded with SQL: an hour of renewals at once.
 */
async function seedDue(ctx: Context, f: { org: string; fanbase: string; tier: string }, count: number) {
  await withClient(ctx, async (client) => {
    const args = [ctx.tenantId, f.org, f.fanbase, f.tier, count];
    await client.query('begin');
    await client.query(
      `insert into customers (id, tenant_id, livemode, name) select 'cus_0bench' || lpad(i::text, 20, '0'), $1, false, 'Fan ' || i from generate_series(1, $2::int) i`,
      [ctx.tenantId, count],
    );
    await client.query(
      `insert into fanbase_memberships (id, tenant_id, livemode, fanbase_id, organization_id, customer, status, source, tier_id, subscription_id, joined_at)
       select 'fmb_0bench' || lpad(i::text, 20, '0'), $1, false, $3, $2, 'cus_0bench' || lpad(i::text, 20, '0'), 'active', 'subscription', $4,
              'sub_0bench' || lpad(i::text, 20, '0'), now() - interval '1 month'
       from generate_series(1, $5::int) i`,
      args,
    );
    await client.query(
      `insert into subscriptions (id, tenant_id, livemode, fanbase_id, organization_id, tier_id, customer, membership_id, status, amount, currency, interval,
                                  current_period_start, current_period_end, renewal_mode, attempts, next_attempt_at)
       select 'sub_0bench' || lpad(i::text, 20, '0'), $1, false, $3, $2, $4, 'cus_0bench' || lpad(i::text, 20, '0'), 'fmb_0bench' || lpad(i::text, 20, '0'),
              'active', 50000, 'KES', 'month', e - interval '1 month', e, 'prompt', 0, e - interval '24 hours'
       from (select i, now() + interval '23 hours' + (i % 3600) * interval '1 second' as e from generate_series(1, $5::int) i) s`,
      args,
    );
    await client.query('commit');
  });
}

/** Seconds until each tenth of the seeded subscriptions has its renewal order, as the server's own job makes them. */
async function watchRenewals(ctx: Context, count: number): Promise<{ marks: number[]; done: number }> {
  const started = performance.now();
  const step = Math.max(1, Math.floor(count / 10));
  const marks: number[] = [];
  let done = 0;
  while (done < count && performance.now() - started < WAIT_LIMIT_MS) {
    await new Promise((r) => setTimeout(r, 1000));
    done = await withClient(ctx, async (c) => Number((await c.query(`select count(*) as n from subscriptions where id like 'sub_0bench%' and attempts > 0`)).rows[0].n));
    while (marks.length < Math.floor(done / step)) marks.push((performance.now() - started) / 1000);
  }
  return { marks, done };
}

/**
 * `fanbases-renew` (the simulator's prompt mode) on 100,000 subscriptions due at once: the time per tenth of them
 * (the job runs each minute, so the first tenth includes the wait for its minute), and no period with two
 * renewal orders. Then `POST /v1/access/check` for subscribers' entitlements beside other grants of the stream.
 */
export const renewals: Scenario = {
  name: 'renewals',
  run: async (ctx, measure) => {
    const count = ctx.renewals;
    const stream = await liveStream(ctx);
    const f = await goldTier(ctx, stream.id);
    await seedDue(ctx, f, count);
    const { marks, done } = await watchRenewals(ctx, count);
    const twice = await withClient(ctx, async (c) =>
      Number((await c.query(`select count(*) as n from (select subscription_id from orders where subscription_id like 'sub_0bench%' group by subscription_id having count(*) > 1) d`)).rows[0].n),
    );
    const per = Math.max(1, Math.floor(count / 10));
    const gaps = marks.map((m, i) => (i === 0 ? m : m - marks[i - 1]!));
    const notes = [
      `renewals: ${done} of ${count} subscriptions had their renewal order within ${Math.round(WAIT_LIMIT_MS / 60_000)} min; seconds per ${per}: ${gaps.map((g) => g.toFixed(1)).join(', ')}`,
      `renewals: periods with two renewal orders: ${twice}${twice === 0 ? '' : ' (a period charged twice)'}`,
    ];

    // The same stream, one set of viewers granted by the API, another holding it by subscription.
    const granted = Array.from({ length: VIEWERS }, (_, i) => `renew-grant-${i}`);
    const subscribers = Array.from({ length: VIEWERS }, (_, i) => `renew-sub-${i}`);
    await pool([...granted, ...subscribers], 25, async (customer) => void (await grant(ctx, customer, stream.id)));
    await withClient(ctx, (c) =>
      c.query(`update entitlements set source = 'subscription', source_ref = 'sub_0bench' || lpad(substr(customer, 11), 20, '0') where tenant_id = $1 and customer like 'renew-sub-%'`, [ctx.tenantId]),
    );
    const checks = (customers: string[]) => {
      const bodies = customers.map((customer) => JSON.stringify({ customer, resource: { type: 'ls', id: stream.id } }));
      let n = 0;
      return () => ({ method: 'POST' as const, path: '/v1/access/check', headers: auth(ctx), body: bodies[n++ % bodies.length] });
    };
    const other = await measure(checks(granted));
    const bySubscription = await measure(checks(subscribers));
    notes.push(`renewals: access checks by subscription at ${(bySubscription.requestsPerSecond / other.requestsPerSecond).toFixed(2)}× the rate of other grants`);
    return {
      results: [
        { name: 'access check (tenant grant)', result: other, target: ratio(1.0) },
        { name: 'access check (subscription)', result: bySubscription, target: ratio(1.0) },
      ],
      notes,
    };
  },
};
