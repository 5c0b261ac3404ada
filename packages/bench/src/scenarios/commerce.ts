import { randomUUID } from 'node:crypto';
import { burst, type Answer, type BurstRequest } from '../burst';
import { settle } from './settle';
import { benchOrganization, publishable, query } from './ticketing-seed';
import { RSS_LIMIT_MB, type Context, type Scenario } from './types';

const sizes = (ctx: Context) => {
  const scaled = (n: number) => Math.max(2, 2 * Math.round((n * ctx.ticketingScale) / 2));
  return { BUYERS: scaled(2000), LAST_UNITS: scaled(200) };
};

const describe = (a: Answer | undefined) => (a ? `${a.status} ${a.error ?? JSON.stringify(a.body).slice(0, 200)}` : 'none');

const order = (ctx: Context, variant: string, buyer: string): BurstRequest => ({
  method: 'POST',
  path: '/v1/orders',
  headers: { ...publishable(ctx), 'idempotency-key': `merch-${buyer}-${randomUUID()}` },
  body: {
    line_items: [{ variant, quantity: 1 }],
    buyer: { name: `Buyer ${buyer}`, email: `${buyer}@bench.example` },
    shipping_address: { name: `Buyer ${buyer}`, phone: '+254711000111', line1: 'Moi Avenue 1', city: 'Nairobi', country: 'KE' },
  },
});

/** A published T-shirt of the bench organization with one variant of `stock` units. */
async function tShirt(ctx: Context, stock: number): Promise<string> {
  const { data } = await ctx.api.call('POST', '/v1/commerce/products', {
    organization: await benchOrganization(ctx),
    kind: 'physical',
    name: `Bench tee ${randomUUID().slice(0, 6)}`,
    status: 'published',
    max_per_order: 100,
    variants: [{ name: 'Black / M', sku: `BENCH-${randomUUID().slice(0, 12)}`, price: 250_000, stock }],
  });
  return data.variants[0].id as string;
}

/**
 * 2,000 buyers ordering one unit each, all at once (over the run's connections), for the last 200 units of one
 * variant: as many orders as units were made just before by the same route (the warm-up), and the refusals'
 * path was warmed up on another variant with nothing left. Checked after the run against the rows: the variant's
 * `reserved` equals the units of its pending orders and never passes its stock, and every refusal is a
 * `409 out_of_stock`.
 */
export const merchRush: Scenario = {
  name: 'merch-rush',
  run: async (ctx) => {
    const { BUYERS, LAST_UNITS } = sizes(ctx);
    const variant = await tShirt(ctx, 2 * LAST_UNITS);
    const warmUp = await burst(ctx.svc, ctx.connections, Array.from({ length: LAST_UNITS }, (_, i) => order(ctx, variant, `early-${i}`)));
    const warmUpFailed = warmUp.answers.filter((a) => a.status !== 201);
    if (warmUpFailed.length) throw new Error(`merch rush: ${warmUpFailed.length} warm-up orders failed, e.g. ${describe(warmUpFailed[0])}`);
    const empty = await tShirt(ctx, 0);
    const refusedWarmUp = await burst(ctx.svc, ctx.connections, Array.from({ length: BUYERS }, (_, i) => order(ctx, empty, `late-${i}`)));
    const warmUpWrong = refusedWarmUp.answers.filter((a) => !(a.status === 409 && a.body?.error?.code === 'out_of_stock'));
    if (warmUpWrong.length) throw new Error(`merch rush: ${warmUpWrong.length} orders of the empty variant were not refused out_of_stock, e.g. ${describe(warmUpWrong[0])}`);

    await settle(ctx.databaseUrl);
    const { result, answers } = await burst(ctx.svc, ctx.connections, Array.from({ length: BUYERS }, (_, i) => order(ctx, variant, `rush-${i}`)));
    const taken = answers.filter((a) => a.status === 201);
    const wrongRefusals = answers.filter((a) => a.status !== 201 && !(a.status === 409 && a.body?.error?.code === 'out_of_stock'));
    const serverErrors = answers.filter((a) => a.status >= 500).length;

    const [row] = await query<{ stock: number; reserved: number; sold: number; held: string }>(
      ctx,
      `select v.stock, v.reserved, v.sold,
              (select coalesce(sum(li.quantity), 0) from line_items li join orders o on o.id = li.order_id
                where li.kind = 'product' and li.product->>'variant' = v.id and o.status = 'pending') as held
         from product_variants v where v.id = $1`,
      [variant],
    );
    const held = Number(row!.held);
    const oversold = Math.max(0, row!.reserved - row!.stock, held - row!.stock);
    const consistent = held === row!.reserved && held === LAST_UNITS + taken.length;
    const correct = oversold === 0 && consistent && wrongRefusals.length === 0 && serverErrors === 0 && result.errors === 0;
    return {
      results: [
        {
          name: `merch rush (${BUYERS} buyers, last ${LAST_UNITS} units)`,
          result,
          target: {
            label: '≥ 0.4× write, 0 oversold, refusals 409 out_of_stock',
            met: (r, x) => x >= 0.4 && correct && r.peakRssMb <= RSS_LIMIT_MB,
          },
          note: 'non-2xx are the expected 409 out_of_stock',
        },
      ],
      notes: [
        `Merch rush: ${taken.length} of ${BUYERS} buyers took ${taken.length} of the last ${LAST_UNITS} units; ` +
          `${answers.length - taken.length} refused (${wrongRefusals.length} not 409 out_of_stock${wrongRefusals[0] ? `, e.g. ${describe(wrongRefusals[0])}` : ''}; ${serverErrors} 5xx). ` +
          `After the run: stock ${row!.stock}, reserved ${row!.reserved}, units of pending orders ${held}: ${oversold} oversold, ` +
          `${consistent ? 'consistent' : 'INCONSISTENT'} with the answers.`,
      ],
    };
  },
};
