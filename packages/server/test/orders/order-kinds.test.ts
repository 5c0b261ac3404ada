import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { sk } from '../ticketing/booking-fixtures';
import { card, eventsOf, getOrder, pay, pendingBooking, sessionOf } from '../ticketing/payments-fixtures';
import { newOrder, seedOrganization, testKinds } from './order-kinds-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
const kinds = testKinds();

describe('orders of every kind', () => {
  it('a ticket order has one ticket line item, shown at booking and on reads', async () => {
    const tenant = await t.tenant();
    const { booking, event, ticketType } = await pendingBooking(t, tenant, {}, 2);
    const line = {
      id: `li_${booking.id.slice(4)}`,
      object: 'line_item',
      kind: 'ticket',
      description: ticketType.name,
      quantity: 2,
      unit_amount: 1500,
      amount_subtotal: 3000,
      amount_discount: 0,
      amount_total: 3000,
      currency: 'KES',
      quantity_refunded: 0,
      ticket: { event: event.id, ticket_type: ticketType.id, event_slot: null },
      product: null,
      subscription: null,
    };
    expect(booking).toMatchObject({ kind: 'ticket', organization: event.organization_id, line_items: [line], amount_subtotal: 3000, amount_shipping: 0, subscription: null });
    expect(booking.checkout_url).toMatch(/\/checkout\/cs_/);
    const read = await getOrder(t, tenant, booking.id);
    expect(read).toMatchObject({ kind: 'ticket', line_items: [line], checkout_url: booking.checkout_url });
  });

  it('createOrder makes a product order: lines, a checkout session, commerce.order.created; paid through the simulator', async () => {
    const tenant = await t.tenant();
    const org = await seedOrganization(t, tenant);
    const created = await newOrder(t, tenant, org);
    expect(created.order).toMatchObject({
      object: 'order',
      kind: 'product',
      status: 'pending',
      organization: org,
      event: null,
      ticket_type: null,
      quantity: 3,
      amount_subtotal: 2500,
      amount_shipping: 300,
      amount_total: 2800,
      amount_due: 2800,
      buyer: { email: 'wanjiru@example.test' },
      attendees: [],
      metadata: { seen_by: 'product' },
    });
    expect(created.order.line_items).toMatchObject([
      { kind: 'product', description: 'T-shirt, Black / L', quantity: 2, unit_amount: 1000, amount_total: 2000, product: { variant: 'var_1', sku: 'TS-BL-L' }, ticket: null },
      { kind: 'product', description: 'Poster', quantity: 1, amount_total: 500 },
    ]);
    expect(created.order.line_items[0]!.id).toMatch(/^li_/);
    expect(created.checkoutUrl).toBe(created.order.checkout_url);
    const session = sessionOf(created.checkoutUrl!);
    const page = expectStatus(await t.http().get(`/v1/checkout/sessions/${session}`), 200).data;
    expect(page).toMatchObject({
      amount: 2800,
      order: { kind: 'product', organization: { id: org, name: 'Merch Co' }, event: null, ticket_type: null, line_items: [{ description: 'T-shirt, Black / L', quantity: 2, amount_total: 2000 }, { description: 'Poster' }] },
    });
    expect((await eventsOf(t, tenant, 'commerce.order.created')).map((e) => e.data.object)).toMatchObject([{ id: created.order.id, status: 'pending' }]);

    expectStatus(await pay(t, session, card('4242424242424242')), 200);
    const paid = await getOrder(t, tenant, created.order.id);
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 2800, checkout_url: null });
    expect(kinds.of(created.order.id)).toEqual([['paid', 'paid']]);
    expect((await eventsOf(t, tenant, 'commerce.order.paid')).map((e) => e.data.object)).toMatchObject([{ id: created.order.id, status: 'paid' }]);
    expect(await eventsOf(t, tenant, 'events.order.paid')).toEqual([]);
  });

  it('a subscription order names its subscription and emits fanbases.order.*; a total of 0 is paid at once', async () => {
    const tenant = await t.tenant();
    const org = await seedOrganization(t, tenant);
    const sub = { subscription: 'sub_test', tier: 'mtr_test', period_start: null, period_end: null };
    const free = await newOrder(t, tenant, org, { kind: 'subscription', subscriptionId: 'sub_test', amountShipping: 0, lineItems: [{ description: 'Free tier', quantity: 1, unitAmount: 0, subscription: sub }] });
    expect(free.order).toMatchObject({ kind: 'subscription', status: 'paid', subscription: 'sub_test', amount_total: 0, checkout_url: null });
    expect(free.checkoutUrl).toBeNull();
    expect(kinds.of(free.order.id)).toEqual([['paid', 'paid']]);
    const types = (await eventsOf(t, tenant, 'fanbases.order.*')).map((e: any) => e.type ?? e.data.object.status);
    expect(types).toHaveLength(2);
    expect((await eventsOf(t, tenant, 'fanbases.order.paid')).map((e) => e.data.object.id)).toEqual([free.order.id]);
    expect((await eventsOf(t, tenant, 'fanbases.order.created')).map((e) => e.data.object.id)).toEqual([free.order.id]);
  });

  it('expiring and cancelling a pending order release it through its kind, with the kind\'s events', async () => {
    const tenant = await t.tenant();
    const org = await seedOrganization(t, tenant);
    const a = await newOrder(t, tenant, org);
    const expired = expectStatus(await t.http().post(`/v1/test_helpers/orders/${a.order.id}/expire`).set(sk(tenant)), 200).data;
    expect(expired).toMatchObject({ status: 'expired', kind: 'product' });
    expect(kinds.of(a.order.id)).toEqual([['released', 'expired']]);
    expect((await eventsOf(t, tenant, 'commerce.order.expired')).map((e) => e.data.object.id)).toEqual([a.order.id]);

    const b = await newOrder(t, tenant, org);
    expect(expectStatus(await t.http().post(`/v1/orders/${b.order.id}/cancel`).set(sk(tenant)), 200).data).toMatchObject({ status: 'cancelled' });
    expect(kinds.of(b.order.id)).toEqual([['released', 'cancelled']]);
    expect((await eventsOf(t, tenant, 'commerce.order.cancelled')).map((e) => e.data.object.id)).toEqual([b.order.id]);
    expectError(await t.http().post(`/v1/orders/${b.order.id}/cancel`).set(sk(tenant)), 409, 'INVALID_STATE');
    expect(await eventsOf(t, tenant, 'events.order.cancelled')).toEqual([]);
  });

  it('a full refund releases the order through its kind and emits commerce.order.refunded', async () => {
    const tenant = await t.tenant();
    const org = await seedOrganization(t, tenant);
    const o = await newOrder(t, tenant, org);
    expectStatus(await pay(t, sessionOf(o.checkoutUrl!), card('4242424242424242')), 200);
    const refund = expectStatus(await t.http().post(`/v1/orders/${o.order.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', `r-${o.order.id}`).send({}), 201).data;
    expect(refund).toMatchObject({ amount: 2800, status: 'succeeded' });
    const order = await getOrder(t, tenant, o.order.id);
    expect(order).toMatchObject({ status: 'refunded', amount_refunded: 2800 });
    expect(kinds.of(o.order.id).map(([hook, detail]) => (hook === 'refunded' ? hook : [hook, detail]))).toEqual([['paid', 'paid'], 'refunded', ['released', 'refunded']]);
    expect((await eventsOf(t, tenant, 'commerce.order.refunded')).map((e) => e.data.object.id)).toEqual([o.order.id]);
  });

  it('a payment after expiry takes the order back when its kind agrees, and is refunded with the kind\'s reason when not', async () => {
    const tenant = await t.tenant();
    const org = await seedOrganization(t, tenant);
    const back = await newOrder(t, tenant, org);
    expectStatus(await t.http().post(`/v1/test_helpers/orders/${back.order.id}/expire`).set(sk(tenant)), 200);
    const late = expectStatus(await pay(t, sessionOf(back.checkoutUrl!), card('4242424242424242')), 200).data;
    expect(late.payment).toMatchObject({ status: 'succeeded', late: true });
    expect(await getOrder(t, tenant, back.order.id)).toMatchObject({ status: 'paid', amount_paid: 2800 });
    expect(kinds.of(back.order.id)).toEqual([['released', 'expired'], ['lateTakeBack', 'expired'], ['paid', 'paid']]);

    const gone = await newOrder(t, tenant, org);
    kinds.refuseLate.set(gone.order.id, 'out_of_stock');
    expectStatus(await t.http().post(`/v1/test_helpers/orders/${gone.order.id}/expire`).set(sk(tenant)), 200);
    const refused = expectStatus(await pay(t, sessionOf(gone.checkoutUrl!), card('4242424242424242')), 200).data;
    expect(refused.redirect_to).toContain('outcome=refunded');
    expect(await getOrder(t, tenant, gone.order.id)).toMatchObject({ status: 'expired' });
    const refunds = expectStatus(await t.http().get(`/v1/orders/${gone.order.id}/refunds`).set(sk(tenant)), 200).data;
    expect(refunds).toMatchObject([{ reason: 'out_of_stock', amount: 2800, status: 'succeeded' }]);
    expect(kinds.of(gone.order.id).map(([hook]) => hook)).toEqual(['released', 'lateTakeBack']);
  });

  it('a hook that throws rolls the payment back: the order stays pending and can be paid again', async () => {
    const tenant = await t.tenant();
    const org = await seedOrganization(t, tenant);
    const o = await newOrder(t, tenant, org);
    kinds.failPaid.add(o.order.id);
    const res = await pay(t, sessionOf(o.checkoutUrl!), card('4242424242424242'));
    expect(res.status).toBe(500);
    expect(await getOrder(t, tenant, o.order.id)).toMatchObject({ status: 'pending', amount_paid: 0 });
    kinds.failPaid.delete(o.order.id);
    expectStatus(await pay(t, sessionOf(o.checkoutUrl!), card('4242424242424242')), 200);
    expect(await getOrder(t, tenant, o.order.id)).toMatchObject({ status: 'paid' });
  });

  it('a refund may name line items: units counted on the lines, the kind told with restock, the amount their paid share', async () => {
    const tenant = await t.tenant();
    const org = await seedOrganization(t, tenant);
    const o = await newOrder(t, tenant, org);
    expectStatus(await pay(t, sessionOf(o.checkoutUrl!), card('4242424242424242')), 200);
    const [shirt, poster] = o.order.line_items;
    const refund = (body: object, key: string) => t.http().post(`/v1/orders/${o.order.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', `${o.order.id}-${key}`).send(body);

    const one = expectStatus(await refund({ line_items: [{ id: shirt!.id, quantity: 1 }], restock: false }, 'one'), 201).data;
    expect(one).toMatchObject({ amount: 1000, status: 'succeeded', line_items: [{ line_item: shirt!.id, quantity: 1 }] });
    let order = await getOrder(t, tenant, o.order.id);
    expect(order).toMatchObject({ status: 'partially_refunded', amount_refunded: 1000 });
    expect(order.line_items.map((l: any) => l.quantity_refunded)).toEqual([1, 0]);
    expect(kinds.of(o.order.id).slice(1)).toEqual([['refunded', { lines: [[shirt!.id, 1]], restock: false }]]);

    const err = expectError(await refund({ line_items: [{ id: shirt!.id, quantity: 2 }] }, 'too-many'), 422, 'validation_failed', { param: 'line_items.0.quantity' });
    expect(err.details).toMatchObject({ refundable: 1 });
    expectError(await refund({ line_items: [{ id: 'li_nope', quantity: 1 }] }, 'unknown'), 422, 'validation_failed', { param: 'line_items.0.id' });
    expect((await getOrder(t, tenant, o.order.id)).line_items.map((l: any) => l.quantity_refunded)).toEqual([1, 0]);

    // The poster with an amount of its own; then the rest of the money refunds the last shirt as well.
    expectStatus(await refund({ line_items: [{ id: poster!.id, quantity: 1 }], amount: 400 }, 'poster'), 201);
    const rest = expectStatus(await refund({}, 'rest'), 201).data;
    expect(rest).toMatchObject({ amount: 1400, line_items: [] });
    order = await getOrder(t, tenant, o.order.id);
    expect(order).toMatchObject({ status: 'refunded', amount_refunded: 2800 });
    expect(order.line_items.map((l: any) => l.quantity_refunded)).toEqual([2, 1]);
    expect(kinds.of(o.order.id).slice(2)).toEqual([
      ['refunded', { lines: [[poster!.id, 1]], restock: true }],
      ['refunded', { lines: [[shirt!.id, 1]], restock: true }],
      ['released', 'refunded'],
    ]);
  });

  it('two refunds racing for the last unit of a line: one counts it, the other is refused', async () => {
    const tenant = await t.tenant();
    const org = await seedOrganization(t, tenant);
    const o = await newOrder(t, tenant, org, { lineItems: [{ description: 'Vinyl', quantity: 1, unitAmount: 2000 }, { description: 'Sticker', quantity: 1, unitAmount: 500 }] });
    expectStatus(await pay(t, sessionOf(o.checkoutUrl!), card('4242424242424242')), 200);
    const vinyl = o.order.line_items[0]!.id;
    const results = await Promise.all(
      ['a', 'b'].map((k) => t.http().post(`/v1/orders/${o.order.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', `race-${k}`).send({ line_items: [{ id: vinyl, quantity: 1 }] })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
    const order = await getOrder(t, tenant, o.order.id);
    expect(order).toMatchObject({ status: 'partially_refunded', amount_refunded: 2000 });
    expect(order.line_items.map((l: any) => l.quantity_refunded)).toEqual([1, 0]);
    expect(kinds.of(o.order.id).filter(([hook]) => hook === 'refunded')).toHaveLength(1);
  });

  it('a ticket order\'s refund may name its line; a full refund counts every ticket refunded', async () => {
    const tenant = await t.tenant();
    const { booking, session } = await pendingBooking(t, tenant, {}, 2);
    expectStatus(await pay(t, session, card('4242424242424242')), 200);
    const line = booking.line_items[0].id;
    const part = expectStatus(await t.http().post(`/v1/orders/${booking.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', `t-${booking.id}`).send({ line_items: [{ id: line, quantity: 1 }] }), 201).data;
    expect(part).toMatchObject({ amount: 1500, line_items: [{ line_item: line, quantity: 1 }] });
    expect((await getOrder(t, tenant, booking.id)).line_items[0]).toMatchObject({ quantity_refunded: 1 });
    expectStatus(await t.http().post(`/v1/orders/${booking.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', `t2-${booking.id}`).send({}), 201);
    expect(await getOrder(t, tenant, booking.id)).toMatchObject({ status: 'refunded', line_items: [{ quantity_refunded: 2 }] });
    expect((await eventsOf(t, tenant, 'events.order.refunded')).map((e) => e.data.object.id)).toEqual([booking.id]);
  });
});
