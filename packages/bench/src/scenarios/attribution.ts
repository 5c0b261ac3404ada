import { burst, type BurstRequest } from '../burst';
import { settle } from './settle';
import { bookingBody, publishable, publishedEvent, query } from './ticketing-seed';
import { RSS_LIMIT_MB, type Context, type Scenario } from './types';

const book = (ctx: Context, slug: string, ticketType: string, buyer: string, ref?: string): BurstRequest => ({
  method: 'POST',
  path: `/v1/events/${slug}/book`,
  headers: publishable(ctx),
  body: { ...bookingBody(ticketType, 1, buyer), ...(ref && { ref }) },
});

/**
 * The ticket rush with and without a promoter's `ref` code, side by side: the same number of buyers booking one
 * ticket each on two events of equal room, one plain and one whose promoter's code every booking sends. The
 * attribution (a read of the code, the promoter and its assignments) must cost at most 5 % of the rush's
 * throughput. Checked against the rows: every booking taken, and every booking of the second event attributed.
 */
export const attributionRush: Scenario = {
  name: 'attribution-rush',
  run: async (ctx) => {
    const buyers = Math.max(20, Math.round(2000 * ctx.ticketingScale));
    const plain = await publishedEvent(ctx, 'Bench Plain', { quantity: buyers + 100, max_per_order: 4 });
    const promoted = await publishedEvent(ctx, 'Bench Promoted', { quantity: buyers + 100, max_per_order: 4 });
    const { data: promoter } = await ctx.api.call('POST', '/v1/promoters', { organization: promoted.organization, name: 'Bench Promoter', email: `promoter-${promoted.id.slice(0, 8)}@bench.example` });
    await ctx.api.call('POST', `/v1/promoters/${promoter.id}/assignments`, { target: { type: 'event', id: promoted.id }, commission: { type: 'percent', basis_points: 1000 } });
    const code = `BENCH${promoted.id.replace(/-/g, '').slice(0, 10)}`;
    await ctx.api.call('POST', `/v1/promoters/${promoter.id}/tracking_codes`, { code });

    // Both paths warmed up on their own events' first seats.
    await burst(ctx.svc, ctx.connections, Array.from({ length: 50 }, (_, i) => book(ctx, plain.slug, plain.ticketType, `warm-plain-${i}`)));
    await burst(ctx.svc, ctx.connections, Array.from({ length: 50 }, (_, i) => book(ctx, promoted.slug, promoted.ticketType, `warm-ref-${i}`, code)));

    await settle(ctx.databaseUrl);
    const without = await burst(ctx.svc, ctx.connections, Array.from({ length: buyers }, (_, i) => book(ctx, plain.slug, plain.ticketType, `plain-${i}`)));
    await settle(ctx.databaseUrl);
    const withRef = await burst(ctx.svc, ctx.connections, Array.from({ length: buyers }, (_, i) => book(ctx, promoted.slug, promoted.ticketType, `ref-${i}`, code)));

    const taken = (answers: { status: number }[]) => answers.filter((a) => a.status === 201).length;
    const [attributed] = await query<{ n: string }>(ctx, `select count(*) as n from orders where event_id = $1 and attribution->>'promoter' = $2`, [promoted.id, promoter.id]);
    const allTaken = taken(without.answers) === buyers && taken(withRef.answers) === buyers;
    const allAttributed = Number(attributed!.n) === buyers + 50;
    const cost = 1 - withRef.result.requestsPerSecond / Math.max(1, without.result.requestsPerSecond);
    const clean = (r: typeof without.result) => r.errors === 0 && r.peakRssMb <= RSS_LIMIT_MB;
    return {
      results: [
        { name: `ticket rush without ref (${buyers} buyers × 1)`, result: without.result, target: { label: 'every booking taken', met: (r) => allTaken && clean(r) } },
        {
          name: `ticket rush with ref (${buyers} buyers × 1)`,
          result: withRef.result,
          target: { label: '≥ 95 % of the rush without ref, every booking attributed', met: (r) => cost <= 0.05 && allTaken && allAttributed && clean(r) },
        },
      ],
      notes: [
        `Attribution: ${taken(withRef.answers)} of ${buyers} bookings with a ref taken, ${attributed!.n} orders of that event attributed (warm-up included); ` +
          `${taken(without.answers)} of ${buyers} without. Throughput with a ref: ${Math.round((1 - cost) * 100)} % of the rush without.`,
      ],
    };
  },
};
