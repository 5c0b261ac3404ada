import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors';
import { releaseStock, reserveStock, restockSold, sellFreeStock, sellReservedStock } from '../../src/modules/commerce/stock/stock.service';
import { useTestServer } from '../harness';
import { creatorOrg, product, variantRow } from './commerce-fixtures';

const t = useTestServer();

describe('the stock service', () => {
  it('never reserves more than is on hand, however many take at once', async () => {
    const tenant = await t.tenant('Stock');
    const scope = { tenantId: tenant.tenant.id, livemode: false };
    const org = await creatorOrg(t, tenant, 'stock_band');
    const made = await product(t, tenant, org.id, { variants: [{ name: 'One', sku: 'STOCK-1', price: 100, stock: 50 }, { name: 'Two', sku: 'STOCK-2', price: 100, stock: null }] });
    const [limited, unlimited] = made.variants as { id: string }[];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        t.ctx.db.transaction().execute((trx) =>
          // Half the takers name the unlimited variant first: locks are still taken in id order.
          reserveStock(trx, scope, i % 2 ? [{ variant: unlimited!.id, quantity: 1 }, { variant: limited!.id, quantity: 1 }] : [{ variant: limited!.id, quantity: 1 }, { variant: unlimited!.id, quantity: 1 }]),
        ),
      ),
    );
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(outcomes.length - refused.length).toBe(50);
    for (const r of refused) {
      const err = (r as PromiseRejectedResult).reason as ApiError;
      expect(err).toBeInstanceOf(ApiError);
      expect(err.code).toBe('out_of_stock');
      expect(err.options.details).toEqual({ variants: [limited!.id] });
    }
    expect(await variantRow(t, limited!.id)).toMatchObject({ stock: 50, reserved: 50, sold: 0 });
    // A refused order rolled back its hold on the unlimited variant too.
    expect(await variantRow(t, unlimited!.id)).toMatchObject({ stock: null, reserved: 50 });

    const line = [{ variant: limited!.id, quantity: 2 }];
    await t.ctx.db.transaction().execute((trx) => sellReservedStock(trx, scope, line));
    expect(await variantRow(t, limited!.id)).toMatchObject({ stock: 48, reserved: 48, sold: 2 });
    await t.ctx.db.transaction().execute((trx) => releaseStock(trx, scope, [{ variant: limited!.id, quantity: 3 }]));
    expect(await variantRow(t, limited!.id)).toMatchObject({ stock: 48, reserved: 45, sold: 2 });
    await t.ctx.db.transaction().execute((trx) => restockSold(trx, scope, [{ variant: limited!.id, quantity: 1 }]));
    expect(await variantRow(t, limited!.id)).toMatchObject({ stock: 49, reserved: 45, sold: 1 });
    expect(await t.ctx.db.transaction().execute((trx) => sellFreeStock(trx, scope, [{ variant: limited!.id, quantity: 5 }]))).toBe(false);
    expect(await t.ctx.db.transaction().execute((trx) => sellFreeStock(trx, scope, [{ variant: limited!.id, quantity: 4 }]))).toBe(true);
    expect(await variantRow(t, limited!.id)).toMatchObject({ stock: 45, reserved: 45, sold: 5 });
  });
});

describe('the nightly check of reserved units', () => {
  it('sets each variant\'s reserved to what its pending orders hold, and leaves the right ones alone', async () => {
    const { recomputeReserved } = await import('../../src/modules/commerce/stock/recompute-reserved.job');
    const tenant = await t.tenant('Drift');
    const org = await creatorOrg(t, tenant, 'drift_band');
    const made = await product(t, tenant, org.id, { variants: [{ name: 'One', sku: 'DRIFT-1', price: 100, stock: 20 }, { name: 'Two', sku: 'DRIFT-2', price: 100, stock: 20 }] });
    const [one, two] = made.variants as { id: string }[];
    // No order holds anything, yet one variant claims 7 units held: drift.
    await t.ctx.db.updateTable('product_variants').set({ reserved: 7 }).where('id', '=', one!.id).execute();
    const warnings: unknown[] = [];
    await recomputeReserved({ db: t.ctx.db, log: { warn: (o: unknown) => warnings.push(o) } as never });
    expect(warnings).toContainEqual({ variant: one!.id, reserved: 7, held: 0 });
    expect(warnings).not.toContainEqual(expect.objectContaining({ variant: two!.id }));
    expect(await variantRow(t, one!.id)).toMatchObject({ reserved: 0 });
    expect(await variantRow(t, two!.id)).toMatchObject({ reserved: 0 });
  });
});
