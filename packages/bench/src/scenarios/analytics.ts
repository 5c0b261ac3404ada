import { newOrganization, organizerEvents, seedPaidOrders, withClient } from './organizer-seed';
import { auth, RSS_LIMIT_MB, type Context, type Scenario } from './types';

const EVENTS = 500;
const COLD_P99_MS = 250;
const WARM_P99_MS = 20;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function get(url: string, path: string, headers: Record<string, string>): Promise<{ ms: number; body: any }> {
  const started = performance.now();
  const res = await fetch(url + path, { headers });
  const text = await res.text();
  const ms = performance.now() - started;
  if (!res.ok) throw new Error(`analytics: GET ${path} → ${res.status} ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) };
}

/** The figures of the last 30 days and the 30 before, per event, from the orders and tickets themselves. */
async function fromRawRows(ctx: Context, organization: string) {
  return withClient(ctx, async (client) => {
    const { rows } = await client.query(
      `with days as (select (now() at time zone g.timezone)::date as today, g.timezone from organizations g where g.id = $1),
       paid as (
         select o.id, o.event_id, (o.paid_at at time zone d.timezone)::date as day, o.amount_paid, d.today
         from orders o, days d where o.organization_id = $1 and o.status = 'paid' and not o.comp
       ),
       sold as (
         select p.event_id, p.day, p.today, p.amount_paid, coalesce(t.tickets, 0) as tickets
         from paid p left join (select order_id, count(*) as tickets from tickets where status = 'valid' group by order_id) t on t.order_id = p.id
       )
       select s.event_id, sum(s.tickets) filter (where s.day > s.today - 30) as tickets, sum(s.amount_paid) filter (where s.day > s.today - 30) as revenue,
         sum(s.tickets) filter (where s.day between s.today - 59 and s.today - 30) as tickets_before,
         sum(s.amount_paid) filter (where s.day between s.today - 59 and s.today - 30) as revenue_before
       from sold s group by s.event_id`,
      [organization],
    );
    return rows.map((r) => ({ event: r.event_id as string, tickets: Number(r.tickets ?? 0), revenue: Number(r.revenue ?? 0), ticketsBefore: Number(r.tickets_before ?? 0), revenueBefore: Number(r.revenue_before ?? 0) }));
  });
}

const change = (now: number, before: number) => (before === 0 ? null : Math.round(((now - before) / before) * 1000) / 10);

/** Compares the API's answers with the raw rows' figures; answers what differs (nothing when they agree). */
function differences(raw: Awaited<ReturnType<typeof fromRawRows>>, overview: any, events: any): string[] {
  const sum = (f: (r: (typeof raw)[number]) => number) => raw.reduce((s, r) => s + f(r), 0);
  const expected = {
    tickets: sum((r) => r.tickets),
    tickets_change: change(sum((r) => r.tickets), sum((r) => r.ticketsBefore)),
    revenue: sum((r) => r.revenue) / 100,
    revenue_change: change(sum((r) => r.revenue), sum((r) => r.revenueBefore)),
  };
  const s = overview.data.stats;
  const got = { tickets: s.tickets_sold.value, tickets_change: s.tickets_sold.change_percentage, revenue: s.total_revenue.value, revenue_change: s.total_revenue.change_percentage };
  const out = Object.keys(expected)
    .filter((k) => (expected as any)[k] !== (got as any)[k])
    .map((k) => `overview ${k}: ${(got as any)[k]} against ${(expected as any)[k]} from the rows`);
  const byEvent = new Map(raw.map((r) => [r.event, r]));
  for (const e of events.data) {
    const r = byEvent.get(e.event_id);
    if ((r?.tickets ?? 0) !== e.tickets_sold || (r?.revenue ?? 0) / 100 !== e.revenue) {
      out.push(`event ${e.event_id}: ${e.tickets_sold} tickets, ${e.revenue} revenue against ${r?.tickets} and ${(r?.revenue ?? 0) / 100}`);
    }
  }
  if (events.meta.total_events !== EVENTS) out.push(`events: ${events.meta.total_events} events against ${EVENTS}`);
  return out;
}

/**
 * `GET /v1/organizer/analytics?period=30d&compare=true` and `GET /v1/organizer/analytics/events` for one
 * organization with 500 events, 1,000,000 paid orders and 2,000,000 tickets over the last 120 days (seeded with
 * SQL, the rollups counted by the payment's own function), with the secret key. Cold: cache misses in fresh
 * server processes (each request another cache key); warm: autocannon on the cached answer.
 */
export const analyticsAtScale: Scenario = {
  name: 'analytics-at-scale',
  run: async (ctx, measure) => {
    const seedStarted = performance.now();
    const org = await newOrganization(ctx, 'Bench Analytics');
    const events = await organizerEvents(ctx, org.id, EVENTS, 100_000);
    const eventsSeconds = (performance.now() - seedStarted) / 1000;
    const seeded = await withClient(ctx, (client) =>
      seedPaidOrders(client, ctx, org.id, events, { first: 1e12, count: ctx.analyticsOrders, code: 'BA', spreadSeconds: 120 * 86_400, ticketsCycle: 3 }),
    );
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const q = `organization=${org.id}`;
    const overviewPath = `/v1/organizer/analytics?period=30d&compare=true&${q}`;
    const eventsPath = `/v1/organizer/analytics/events?period=30d&${q}`;
    // Cold: a fresh process (no cached answer) first answers both routes for another, empty organization (its
    // code compiled, its connections open: a process that has served anything), then each route's measured request,
    // then the same route for other periods (each another cache key, so another miss). PostgreSQL's own buffers are
    // not emptied (that would need a restart of the shared server); the rollups are a few MB.
    const other = await newOrganization(ctx, 'Bench Analytics (empty)');
    const cold = { overview: [] as number[], events: [] as number[] };
    const processFirst: number[] = [];
    let firstOverview: any;
    let firstEvents: any;
    for (let round = 0; round < 3; round++) {
      const { running } = await ctx.another({});
      try {
        processFirst.push((await get(running.url, overviewPath.replace(org.id, other.id), auth(ctx))).ms);
        processFirst.push((await get(running.url, eventsPath.replace(org.id, other.id), auth(ctx))).ms);
        for (const [route, path] of [['overview', overviewPath], ['events', eventsPath]] as const) {
          for (const period of ['30d', '7d', '14d', '60d', '90d']) {
            const r = await get(running.url, path.replace('period=30d', `period=${period}`), auth(ctx));
            cold[route].push(r.ms);
            if (round === 0 && period === '30d') route === 'overview' ? (firstOverview = r.body) : (firstEvents = r.body);
          }
        }
      } finally {
        await running.stop();
      }
    }
    const checkStarted = performance.now();
    const raw = await fromRawRows(ctx, org.id);
    const allEvents = (await get(ctx.svc.url, `${eventsPath}&limit=100`, auth(ctx))).body;
    const wrong = [...differences(raw, firstOverview, firstEvents), ...differences(raw, firstOverview, allEvents)];
    const checkSeconds = (performance.now() - checkStarted) / 1000;

    const warmOverview = await measure(() => ({ method: 'GET', path: overviewPath, headers: auth(ctx) }));
    const warmEvents = await measure(() => ({ method: 'GET', path: eventsPath, headers: auth(ctx) }));
    const coldLine = (route: 'overview' | 'events') => {
      const sorted = [...cold[route]].sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), n: sorted.length, first: cold[route][0]! };
    };
    const co = coldLine('overview');
    const ce = coldLine('events');
    const warmTarget = { label: `p99 ≤ ${WARM_P99_MS} ms warm`, met: (r: { p99Ms: number; errors: number; non2xx: number; peakRssMb: number }) => r.p99Ms <= WARM_P99_MS && r.errors === 0 && r.non2xx === 0 && r.peakRssMb <= RSS_LIMIT_MB };
    const tickets = Number(firstOverview.data.stats.tickets_sold.value);
    if (wrong.length > 0) throw new Error(`analytics-at-scale: the answers differ from the rows:\n${wrong.slice(0, 10).join('\n')}`);
    return {
      results: [
        { name: `analytics overview 30d+compare, warm (${ctx.analyticsOrders.toLocaleString('en')} orders)`, result: warmOverview, target: warmTarget },
        { name: `analytics events 30d, warm (${ctx.analyticsOrders.toLocaleString('en')} orders)`, result: warmEvents, target: warmTarget },
      ],
      notes: [
        `Analytics at scale: seeded ${seeded.orders.rows} orders (${seeded.orders.seconds.toFixed(1)} s), ${seeded.tickets.rows} tickets (${seeded.tickets.seconds.toFixed(1)} s), their ${seeded.indexes.rows} secondary indexes made again (${seeded.indexes.seconds.toFixed(1)} s), ` +
          `rollups by count_paid_orders (${seeded.rollups.seconds.toFixed(1)} s), ANALYZE (${seeded.analyze.seconds.toFixed(1)} s); ${EVENTS} events through the API (${eventsSeconds.toFixed(1)} s); ${seedSeconds.toFixed(1)} s in all.`,
        `Analytics cold (fresh process, each request a cache miss, after one request of another organization per route): overview p50 ${co.p50.toFixed(0)} ms, p99 ${co.p99.toFixed(0)} ms, first ${co.first.toFixed(0)} ms (${co.n} requests); ` +
          `events p50 ${ce.p50.toFixed(0)} ms, p99 ${ce.p99.toFixed(0)} ms, first ${ce.first.toFixed(0)} ms (${ce.n}); target p99 ≤ ${COLD_P99_MS} ms: ${co.p99 <= COLD_P99_MS && ce.p99 <= COLD_P99_MS ? 'met' : 'NOT met'}. ` +
          `The very first requests of each new process (overview, then events, of the empty organization): ${processFirst.map((ms) => ms.toFixed(0)).join(', ')} ms.`,
        `Analytics check: the overview (${tickets} tickets, ${firstOverview.data.stats.total_revenue.value} KES in 30 days, changes ${firstOverview.data.stats.tickets_sold.change_percentage} % and ${firstOverview.data.stats.total_revenue.change_percentage} %) ` +
          `and every event of the events report (top 20 and top 100 of ${firstEvents.meta.total_events}) equal the figures computed from the orders and tickets (${checkSeconds.toFixed(1)} s).`,
      ],
    };
  },
};
