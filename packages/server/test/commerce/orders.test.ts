import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { eventsOf } from '../ticketing/payments-fixtures';
import { creatorOrg, product, sk, tshirtVariants, variantRow, type Tenant } from './commerce-fixtures';
import { address, orderBody, payOrder, placeOrder, readOrder, refundOrder } from './orders-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

let tenant: Tenant;
let org: { id: string; handle: string };
let tee: Record<string, any>;
const variantOf = (i = 0) => tee.variants[i].id as string;

describe('POST /v1/orders', () => {
  it('makes a pending product order holding its stock, with the shipping fee, a checkout page and commerce.order.created', async () => {
    tenant = await t.tenant('Shop');
    org = await creatorOrg(t, tenant, 'shop_band');
    expectStatus(await t.http().patch(`/v1/organizations/${org.id}/commerce_settings`).set(sk(tenant)).send({ shipping_fee: 30000, hold_minutes: 20 }), 200);
    tee = await product(t, tenant, org.id, { variants: tshirtVariants(10, 250000) });
    const order = expectStatus(await placeOrder(t, tenant, { ...orderBody(variantOf(0), 2, 'a'), line_items: [{ variant: variantOf(0), quantity: 1 }, { variant: variantOf(1), quantity: 1 }, { variant: variantOf(0), quantity: 1 }] }), 201).data;
    expect(order).toMatchObject({
      object: 'order',
      kind: 'product',
      status: 'pending',
      organization: org.id,
      event: null,
      ticket_type: null,
      quantity: 3,
      amount_subtotal: 750000,
      amount_shipping: 30000,
      amount_total: 780000,
      currency: 'KES',
      shipping_method: 'delivery',
      shipping_address: { ...address, line2: null, region: null, postal_code: null, instructions: null },
      fulfillment_status: 'unfulfilled',
      buyer: { name: 'Fan a', email: 'fana@example.test' },
    });
    expect(order.line_items).toHaveLength(2);
    expect(order.line_items[0]).toMatchObject({ object: 'line_item', kind: 'product', quantity: 2, unit_amount: 250000, amount_total: 500000, product: { product: tee.id, variant: variantOf(0), kind: 'physical' } });
    expect(order.checkout_url).toMatch(/\/checkout\/cs_/);
    expect(new Date(order.expires_at).getTime() - new Date(order.created_at).getTime()).toBeGreaterThan(19 * 60_000);
    expect(await variantRow(t, variantOf(0))).toMatchObject({ stock: 10, reserved: 2 });
    expect(await variantRow(t, variantOf(1))).toMatchObject({ stock: 10, reserved: 1 });
    expect((await eventsOf(t, tenant, 'commerce.order.created'))[0]!.data.object).toMatchObject({ id: order.id, kind: 'product', shipping_method: 'delivery' });
  });

  it('requires an Idempotency-Key, and a repeat answers the same order without holding more', async () => {
    expectError(await t.http().post('/v1/orders').set(sk(tenant)).send(orderBody(variantOf(2), 1, 'b')), 400, 'idempotency_key_required');
    const first = expectStatus(await t.http().post('/v1/orders').set(sk(tenant)).set('Idempotency-Key', 'same-order').send(orderBody(variantOf(2), 1, 'b')), 201).data;
    const again = expectStatus(await t.http().post('/v1/orders').set(sk(tenant)).set('Idempotency-Key', 'same-order').send(orderBody(variantOf(2), 1, 'b')), 201).data;
    expect(again.id).toBe(first.id);
    expect(await variantRow(t, variantOf(2))).toMatchObject({ reserved: 1 });
  });

  it('answers bad input with 422 and a stable code', async () => {
    const v = variantOf(2);
    const bad: [Record<string, unknown>, string, string][] = [
      [orderBody(v, 0, 'x'), 'validation_failed', 'line_items.0.quantity'],
      [orderBody(v, -3, 'x'), 'validation_failed', 'line_items.0.quantity'],
      [orderBody(v, 101, 'x'), 'validation_failed', 'line_items.0.quantity'],
      [orderBody(v, 1.5, 'x'), 'validation_failed', 'line_items.0.quantity'],
      [{ ...orderBody(v, 1, 'x'), line_items: [] }, 'validation_failed', 'line_items'],
      [{ ...orderBody(v, 1, 'x'), line_items: Array.from({ length: 51 }, () => ({ variant: v, quantity: 1 })) }, 'validation_failed', 'line_items'],
      [{ ...orderBody(v, 1, 'x'), shipping_address: undefined }, 'validation_failed', 'shipping_address'],
      [{ ...orderBody(v, 1, 'x'), shipping_address: { ...address, country: 'Kenya' } }, 'validation_failed', 'shipping_address.country'],
      [{ ...orderBody(v, 1, 'x'), shipping_method: 'pickup' }, 'validation_failed', 'shipping_method'],
      [{ ...orderBody(v, 1, 'x'), buyer: undefined }, 'validation_failed', 'buyer'],
      [{ ...orderBody(v, 1, 'x'), external_id: 'from-a-browser' }, 'validation_failed', 'external_id'],
      [orderBody(v, 11, 'x'), 'product_unavailable', 'line_items.0.variant'],
      [{ ...orderBody(v, 6, 'x'), line_items: [{ variant: v, quantity: 6 }, { variant: v, quantity: 5 }] }, 'product_unavailable', 'line_items.0.variant'],
    ];
    for (const [body, code, param] of bad) {
      const err = expectError(await placeOrder(t, tenant, body), 422, code);
      expect(JSON.stringify({ param: err.param, details: err.details }), `${code} ${param}`).toContain(param);
    }
    expect((expectError(await placeOrder(t, tenant, orderBody(v, 11, 'x')), 422, 'product_unavailable').details as { reason: string }).reason).toBe('quantity_over_limit');
    expectError(await placeOrder(t, tenant, orderBody('var_unknown', 1, 'x')), 404, 'resource_not_found', { param: 'line_items.0.variant' });
    expect(await variantRow(t, v)).toMatchObject({ reserved: 1 });
  });

  it('refuses archived, inactive, other-organization and other-currency items (422 product_unavailable, details.reason)', async () => {
    const archived = await product(t, tenant, org.id, { variants: [{ name: 'Old', sku: 'OLD-1', price: 100 }] });
    expectStatus(await t.http().patch(`/v1/commerce/products/${archived.id}`).set(sk(tenant)).send({ status: 'archived' }), 200);
    expectError(await placeOrder(t, tenant, orderBody(archived.variants[0].id, 1, 'x')), 422, 'product_unavailable', { param: 'line_items.0.variant', reason: 'not_published' });
    const draft = await product(t, tenant, org.id, { status: 'draft', variants: [{ name: 'New', sku: 'NEW-1', price: 100 }] });
    expectError(await placeOrder(t, tenant, orderBody(draft.variants[0].id, 1, 'x')), 422, 'product_unavailable', { reason: 'not_published' });
    const mixed = await product(t, tenant, org.id, { variants: [{ name: 'On', sku: 'MIX-ON', price: 100 }, { name: 'Off', sku: 'MIX-OFF', price: 100, active: false }] });
    expectError(
      await placeOrder(t, tenant, { ...orderBody(mixed.variants[0].id, 1, 'x'), line_items: [{ variant: mixed.variants[0].id, quantity: 1 }, { variant: mixed.variants[1].id, quantity: 1 }] }),
      422,
      'product_unavailable',
      { param: 'line_items.1.variant', reason: 'inactive' },
    );
    const otherOrg = await creatorOrg(t, tenant, 'other_shop');
    const theirs = await product(t, tenant, otherOrg.id, { variants: [{ name: 'Theirs', sku: 'THEIRS-1', price: 100 }] });
    expectError(
      await placeOrder(t, tenant, { ...orderBody(variantOf(2), 1, 'x'), line_items: [{ variant: variantOf(2), quantity: 1 }, { variant: theirs.variants[0].id, quantity: 1 }] }),
      422,
      'product_unavailable',
      { param: 'line_items.1.variant', reason: 'other_organization' },
    );
    const dollars = await product(t, tenant, org.id, { currency: 'USD', variants: [{ name: 'USD', sku: 'USD-1', price: 100 }] });
    expectError(
      await placeOrder(t, tenant, { ...orderBody(variantOf(2), 1, 'x'), line_items: [{ variant: variantOf(2), quantity: 1 }, { variant: dollars.variants[0].id, quantity: 1 }] }),
      422,
      'product_unavailable',
      { reason: 'currency_mismatch' },
    );
  });

  it('keeps the price an order was made with, whatever the variant costs later', async () => {
    const shirt = await product(t, tenant, org.id, { variants: [{ name: 'Price', sku: 'PRICE-1', price: 1000, stock: 5 }] });
    const order = expectStatus(await placeOrder(t, tenant, orderBody(shirt.variants[0].id, 2, 'p')), 201).data;
    expectStatus(await t.http().patch(`/v1/commerce/variants/${shirt.variants[0].id}`).set(sk(tenant)).send({ price: 9999 }), 200);
    const paid = await payOrder(t, order);
    expect(paid.payment.amount).toBe(2000 + 30000);
    expect(await readOrder(t, tenant, order.id)).toMatchObject({ status: 'paid', amount_total: 32000, amount_paid: 32000, line_items: [{ unit_amount: 1000 }] });
  });

  it('picks up where the organization allows it: no address, no fee', async () => {
    const shop = await creatorOrg(t, tenant, 'pickup_shop');
    expectStatus(await t.http().patch(`/v1/organizations/${shop.id}/commerce_settings`).set(sk(tenant)).send({ shipping_fee: 500, pickup_enabled: true }), 200);
    const cap = await product(t, tenant, shop.id, { variants: [{ name: 'Cap', sku: 'PICK-1', price: 700 }] });
    const order = expectStatus(await placeOrder(t, tenant, { line_items: [{ variant: cap.variants[0].id, quantity: 1 }], buyer: { phone: '+254711555666' }, shipping_method: 'pickup' }), 201).data;
    expect(order).toMatchObject({ shipping_method: 'pickup', shipping_address: null, amount_shipping: 0, amount_total: 700 });
  });
});

describe('the stock of a product order', () => {
  it('goes back when the order is cancelled or expires, and is sold when it is paid', async () => {
    const shirt = await product(t, tenant, org.id, { variants: [{ name: 'Life', sku: 'LIFE-1', price: 500, stock: 5 }] });
    const v = shirt.variants[0].id;
    const cancelled = expectStatus(await placeOrder(t, tenant, orderBody(v, 2, 'c')), 201).data;
    const expired = expectStatus(await placeOrder(t, tenant, orderBody(v, 1, 'e')), 201).data;
    const paid = expectStatus(await placeOrder(t, tenant, orderBody(v, 2, 'p')), 201).data;
    expect(await variantRow(t, v)).toMatchObject({ stock: 5, reserved: 5, sold: 0 });
    expectError(await placeOrder(t, tenant, orderBody(v, 1, 'late')), 409, 'out_of_stock');

    expect(expectStatus(await t.http().post(`/v1/orders/${cancelled.id}/cancel`).set(sk(tenant)), 200).data.status).toBe('cancelled');
    expect(await variantRow(t, v)).toMatchObject({ stock: 5, reserved: 3 });
    expect((await eventsOf(t, tenant, 'commerce.order.cancelled'))[0]!.data.object.id).toBe(cancelled.id);
    expect(expectStatus(await t.http().post(`/v1/test_helpers/orders/${expired.id}/expire`).set(sk(tenant)), 200).data.status).toBe('expired');
    expect(await variantRow(t, v)).toMatchObject({ stock: 5, reserved: 2 });
    expect((await eventsOf(t, tenant, 'commerce.order.expired'))[0]!.data.object.id).toBe(expired.id);

    await payOrder(t, paid);
    expect(await variantRow(t, v)).toMatchObject({ stock: 3, reserved: 0, sold: 2 });
    expect((await eventsOf(t, tenant, 'commerce.order.paid'))[0]!.data.object).toMatchObject({ id: paid.id, status: 'paid' });
  });

  it('restocks refunded units unless told not to; a refund cannot exceed what was paid; racing refunds of one line refund once', async () => {
    const shirt = await product(t, tenant, org.id, { variants: [{ name: 'Refund', sku: 'REF-1', price: 1000, stock: 10 }, { name: 'Refund 2', sku: 'REF-2', price: 1000, stock: 10 }] });
    const [a, b] = shirt.variants.map((v: { id: string }) => v.id);
    const order = expectStatus(await placeOrder(t, tenant, { ...orderBody(a, 1, 'r'), line_items: [{ variant: a, quantity: 3 }, { variant: b, quantity: 2 }] }), 201).data;
    await payOrder(t, order);
    expect(await variantRow(t, a)).toMatchObject({ stock: 7, sold: 3 });
    const [lineA, lineB] = (await readOrder(t, tenant, order.id)).line_items;

    expectError(await refundOrder(t, tenant, order.id, { amount: 5000 + 30000 + 1 }), 422, 'refund_amount_too_large');
    const one = expectStatus(await refundOrder(t, tenant, order.id, { line_items: [{ id: lineA.id, quantity: 1 }] }), 201).data;
    expect(one).toMatchObject({ amount: 1000, status: 'succeeded' });
    expect(await variantRow(t, a)).toMatchObject({ stock: 8, sold: 2 });
    expectStatus(await refundOrder(t, tenant, order.id, { line_items: [{ id: lineA.id, quantity: 1 }], restock: false }), 201);
    expect(await variantRow(t, a)).toMatchObject({ stock: 8, sold: 2 });

    const racing = await Promise.all([1, 2, 3].map(() => refundOrder(t, tenant, order.id, { line_items: [{ id: lineB.id, quantity: 2 }] })));
    expect(racing.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of racing.filter((r) => r.status !== 201)) expect([409, 422]).toContain(r.status);
    expect(await variantRow(t, b)).toMatchObject({ stock: 10, sold: 0 });
    const after = await readOrder(t, tenant, order.id);
    expect(after).toMatchObject({ status: 'partially_refunded', amount_refunded: 4000 });
    expect(after.line_items.map((l: { quantity_refunded: number }) => l.quantity_refunded)).toEqual([2, 2]);
  });
});
