import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { creatorOrg, pk, product, variantRow } from './commerce-fixtures';
import { orderBody } from './orders-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

describe('a rush of orders as the server starts', () => {
  it('answers every order when more arrive at once than the pool has connections, with nothing cached yet', async () => {
    const tenant = await t.tenant('Cold rush');
    await t.ctx.db.updateTable('tenants').set({ rate_limit_publishable: 100_000 }).where('id', '=', tenant.tenant.id).execute();
    const org = await creatorOrg(t, tenant, 'cold_band');
    const made = await product(t, tenant, org.id, { kind: 'physical', variants: [{ name: 'Tee', sku: 'COLD-1', price: 1500, stock: 100 }], status: 'published' });
    const variant = made.variants[0].id as string;
    // An order's transaction must never wait for a second connection: with every connection held by an order
    // waiting for one, none would ever be answered.
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t.http().post('/v1/orders').set(pk(tenant)).set('Idempotency-Key', `cold-${i}`).send(orderBody(variant, 1, i)).timeout(60_000)),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    expect(answers.every((a) => String(a.body.data.checkout_url).includes('/checkout/'))).toBe(true);
    expect(await variantRow(t, variant)).toMatchObject({ reserved: 40 });
  }, 120_000);
});
