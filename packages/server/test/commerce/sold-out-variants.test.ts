import { describe, expect, it } from 'vitest';
import { soldOutVariantsOf } from '../../src/modules/commerce/stock/sold-out-variants';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { creatorOrg, product, sk, variantRow, type Tenant } from './commerce-fixtures';
import { orderBody, payOrder, placeOrder, refundOrder } from './orders-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

async function soldOutVariant(tenant: Tenant, slug: string): Promise<string> {
  const org = await creatorOrg(t, tenant, slug);
  const made = await product(t, tenant, org.id, { variants: [{ name: 'Poster', sku: `${slug}-1`, price: 1000, stock: 1 }] });
  return made.variants[0].id as string;
}

/** An order refused `out_of_stock`, after which the variant is remembered sold out. */
async function refused(tenant: Tenant, variant: string, i: string) {
  expectError(await placeOrder(t, tenant, orderBody(variant, 1, i)), 409, 'out_of_stock');
  expect(soldOutVariantsOf(t.ctx).holds(variant)).toBe(true);
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < ms; await new Promise((resolve) => setTimeout(resolve, 20))) if (check()) return true;
  return check();
}

describe('variants remembered sold out', () => {
  it('answer the next refusals alike, and take orders again right after a cancel, an expiry, a raised stock or a restock', async () => {
    const tenant = await t.tenant('Memo');
    const variant = await soldOutVariant(tenant, 'memo_band');
    const first = expectStatus(await placeOrder(t, tenant, orderBody(variant, 1, 'a')), 201).data;
    await refused(tenant, variant, 'b');
    // Answered from the memo: the same refusal, naming the variant.
    const again = await placeOrder(t, tenant, orderBody(variant, 1, 'b2'));
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'out_of_stock', param: 'line_items', details: { variants: [variant] } });

    expectStatus(await t.http().post(`/v1/orders/${first.id}/cancel`).set(sk(tenant)), 200);
    const second = expectStatus(await placeOrder(t, tenant, orderBody(variant, 1, 'c')), 201).data;
    await refused(tenant, variant, 'd');

    expectStatus(await t.http().post(`/v1/test_helpers/orders/${second.id}/expire`).set(sk(tenant)), 200);
    const third = expectStatus(await placeOrder(t, tenant, orderBody(variant, 1, 'e')), 201).data;
    await refused(tenant, variant, 'f');

    expectStatus(await t.http().patch(`/v1/commerce/variants/${variant}`).set(sk(tenant)).send({ stock: 2 }), 200);
    expectStatus(await placeOrder(t, tenant, orderBody(variant, 1, 'g')), 201);
    await refused(tenant, variant, 'h');

    await payOrder(t, third);
    await refused(tenant, variant, 'i');
    expectStatus(await refundOrder(t, tenant, third.id), 201);
    expect(await variantRow(t, variant)).toMatchObject({ stock: 2, reserved: 1, sold: 0 });
    expectStatus(await placeOrder(t, tenant, orderBody(variant, 1, 'j')), 201);
    await refused(tenant, variant, 'k');

    // A change to the variant (not its stock) is read again too: an inactive variant is unavailable, not sold out.
    expectStatus(await t.http().patch(`/v1/commerce/variants/${variant}`).set(sk(tenant)).send({ active: false }), 200);
    expectError(await placeOrder(t, tenant, orderBody(variant, 1, 'l')), 422, 'product_unavailable');
  });

  it('are forgotten in every process when the database says room came back, without waiting for the time to live', async () => {
    const tenant = await t.tenant('Notify');
    const variant = await soldOutVariant(tenant, 'notify_band');
    expectStatus(await placeOrder(t, tenant, orderBody(variant, 1, 'a')), 201);
    await refused(tenant, variant, 'b');
    // Holding units shrinks the room: no word, the variant stays remembered.
    await t.ctx.db.updateTable('product_variants').set({ stock: 5, reserved: 5 }).where('id', '=', variant).execute();
    expect(await until(() => !soldOutVariantsOf(t.ctx).holds(variant), 300)).toBe(false);
    // A write this process did not make (another process's): the trigger's word makes it forget.
    await t.ctx.db.updateTable('product_variants').set({ reserved: 4 }).where('id', '=', variant).execute();
    expect(await until(() => !soldOutVariantsOf(t.ctx).holds(variant), 1_000)).toBe(true);
    expectStatus(await placeOrder(t, tenant, orderBody(variant, 1, 'c')), 201);
    await refused(tenant, variant, 'd');
    await t.ctx.db.updateTable('products').set({ name: 'Poster (signed)' }).where('id', '=', (await variantRow(t, variant)).product_id).execute();
    expect(await until(() => !soldOutVariantsOf(t.ctx).holds(variant), 1_000)).toBe(true);
  });
});
