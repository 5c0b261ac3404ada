import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { attendees, bookAs, bucketsOf, pk, seedEvent } from '../ticketing/booking-fixtures';
import { eventsOf } from '../ticketing/payments-fixtures';
import { creatorOrg, product, readyAsset, sk, variantRow, type Tenant } from './commerce-fixtures';
import { address, payOrder, readOrder, refundOrder } from './orders-fixtures';
import { cancelOrdersOfEvent } from '../../src/modules/ticketing/event-cancel/cancel-event-orders.job';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

/** A booking of one 1,500 ticket with these add-ons, as a storefront. */
const book = (tenant: Tenant, event: string, ticketType: string, extra: Record<string, unknown>) =>
  bookAs(t, pk(tenant), event, { ticket_id: ticketType, quantity: 1, buyer_name: 'Wanjiku', buyer_email: 'wanjiku@example.test', attendees: attendees(1), ...extra });

async function showWithMerch(name: string, stock = 5) {
  const tenant = await t.tenant(name);
  const show = await seedEvent(t, tenant, { ticketTypes: [{ price: 1500 }] });
  expectStatus(await t.http().patch(`/v1/organizations/${show.organization}/commerce_settings`).set(sk(tenant)).send({ shipping_fee: 300 }), 200);
  const tee = await product(t, tenant, show.organization, { variants: [{ name: 'Black / M', sku: `ADD-M-${name}`, price: 2500, stock }] });
  return { tenant, show, tee: tee.variants[0].id as string, eventId: show.event.id as string, ticketType: show.ticketType.id as string };
}

describe('add-ons to a booking', () => {
  it('books a ticket and a T-shirt in one order and one payment, sells the stock, ships the shirt and grants a digital add-on', async () => {
    const { tenant, show, tee, eventId, ticketType } = await showWithMerch('Addons');
    const album = await readyAsset(t, tenant);
    const download = await product(t, tenant, show.organization, {
      kind: 'digital',
      name: 'Live album',
      variants: [{ name: 'Download', sku: 'ADD-ALBUM', price: 800 }],
      grants: [{ type: 'ast', id: album }],
    });
    const res = await book(tenant, eventId, ticketType, {
      add_ons: [{ variant: tee, quantity: 1 }, { variant: download.variants[0].id, quantity: 1 }],
      shipping_address: address,
    });
    const { booking, payment } = expectStatus(res, 201).data;
    expect(booking).toMatchObject({
      kind: 'ticket',
      status: 'pending',
      amount_subtotal: 1500 + 2500 + 800,
      amount_shipping: 300,
      amount_total: 1500 + 2500 + 800 + 300,
      shipping_method: 'delivery',
      shipping_address: { line1: address.line1 },
      fulfillment_status: 'unfulfilled',
    });
    expect(booking.line_items.map((l: { kind: string; amount_total: number }) => [l.kind, l.amount_total])).toEqual([['ticket', 1500], ['product', 2500], ['product', 800]]);
    expect(booking.line_items[1].product).toMatchObject({ variant: tee, kind: 'physical' });
    expect(typeof payment).toBe('string');
    expect(await variantRow(t, tee)).toMatchObject({ stock: 5, reserved: 1, sold: 0 });

    // One checkout pays for both.
    await payOrder(t, { checkout_url: payment });
    const paid = await readOrder(t, tenant, booking.id);
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 5100, fulfillment_status: 'unfulfilled' });
    expect(paid.attendees[0].ticket.status).toBe('valid');
    expect(await variantRow(t, tee)).toMatchObject({ stock: 4, reserved: 0, sold: 1 });
    const paidEvent = (await eventsOf(t, tenant, 'events.order.paid'))[0]!.data.object;
    expect(paidEvent).toMatchObject({ id: booking.id, shipping_method: 'delivery' });
    const customer = expectStatus(await t.http().get('/v1/access/entitlements').query({ resource: album }).set(sk(tenant)), 200).data;
    expect(customer).toHaveLength(1);
    expect(customer[0]).toMatchObject({ source: 'payment', source_ref: booking.code, status: 'active' });

    // The organizer ships the shirt; the CSV to pack lists the shirt, never the ticket.
    const csv = await t.http().get('/v1/commerce/orders/export').query({ organization: show.organization }).set(sk(tenant)).buffer(true).parse((r, cb) => {
      let text = '';
      r.on('data', (c: Buffer) => (text += c.toString()));
      r.on('end', () => cb(null, text));
    });
    const rows = String(csv.body).trim().split('\n').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.includes(booking.code))).toBe(true);
    expect(rows.some((r) => r.includes('ADD-M-Addons'))).toBe(true);
    const shipped = expectStatus(await t.http().post(`/v1/orders/${booking.id}/fulfillment`).set(sk(tenant)).send({ status: 'shipped', carrier: 'Sendy', tracking_number: 'SND-7' }), 200).data;
    expect(shipped).toMatchObject({ kind: 'ticket', fulfillment_status: 'shipped', fulfillment: { tracking_number: 'SND-7' } });
  });

  it('refunds line by line (the shirt restocked, the ticket kept), then together (the ticket void, every unit back)', async () => {
    const { tenant, tee, eventId, ticketType } = await showWithMerch('AddonRefund');
    const { booking, payment } = expectStatus(await book(tenant, eventId, ticketType, { add_ons: [{ variant: tee, quantity: 2 }], shipping_address: address }), 201).data;
    await payOrder(t, { checkout_url: payment });
    expect(await variantRow(t, tee)).toMatchObject({ stock: 3, sold: 2 });
    const shirtLine = booking.line_items[1];

    const one = expectStatus(await refundOrder(t, tenant, booking.id, { line_items: [{ id: shirtLine.id, quantity: 1 }] }), 201).data;
    expect(one).toMatchObject({ amount: 2500, status: 'succeeded' });
    expect(await variantRow(t, tee)).toMatchObject({ stock: 4, sold: 1 });
    const partly = await readOrder(t, tenant, booking.id);
    expect(partly).toMatchObject({ status: 'partially_refunded', amount_refunded: 2500 });
    expect(partly.attendees[0].ticket.status).toBe('valid');
    expectError(await refundOrder(t, tenant, booking.id, { line_items: [{ id: shirtLine.id, quantity: 2 }] }), 422, 'validation_failed');

    // The rest refunded: the last shirt back on the shelf, the ticket void, the seat free.
    expectStatus(await refundOrder(t, tenant, booking.id, {}), 201);
    const refunded = await readOrder(t, tenant, booking.id);
    expect(refunded).toMatchObject({ status: 'refunded', amount_refunded: 1500 + 5000 + 300 });
    expect(refunded.attendees[0].ticket.status).toBe('void');
    expect(refunded.line_items.map((l: { quantity_refunded: number }) => l.quantity_refunded)).toEqual([1, 2]);
    expect(await variantRow(t, tee)).toMatchObject({ stock: 5, reserved: 0, sold: 0 });
  });

  it('gives the stock back with the seats when the booking expires or is cancelled', async () => {
    const { tenant, show, tee, eventId, ticketType } = await showWithMerch('AddonExpiry');
    const first = expectStatus(await book(tenant, eventId, ticketType, { add_ons: [{ variant: tee, quantity: 3 }], shipping_method: 'delivery', shipping_address: address }), 201).data.booking;
    expect(await variantRow(t, tee)).toMatchObject({ reserved: 3 });
    expectStatus(await t.http().post(`/v1/test_helpers/orders/${first.id}/expire`).set(sk(tenant)), 200);
    expect(await variantRow(t, tee)).toMatchObject({ stock: 5, reserved: 0 });
    expect((await bucketsOf(t, eventId))[`e:${show.event.id}`]).toMatchObject({ held: 0 });

    const second = expectStatus(await book(tenant, eventId, ticketType, { add_ons: [{ variant: tee, quantity: 2 }], shipping_address: address }), 201).data.booking;
    expectStatus(await t.http().post(`/v1/orders/${second.id}/cancel`).set(sk(tenant)), 200);
    expect(await variantRow(t, tee)).toMatchObject({ stock: 5, reserved: 0 });
    expect((await readOrder(t, tenant, second.id)).status).toBe('cancelled');
  });

  it('restocks the add-ons of a free paid booking cancelled with its event, as a refund would', async () => {
    const tenant = await t.tenant('AddonFree');
    const show = await seedEvent(t, tenant, { ticketTypes: [{ price: 0 }] });
    const tee = (await product(t, tenant, show.organization, { variants: [{ name: 'Free / M', sku: 'ADD-FREE-M', price: 0, stock: 5 }] })).variants[0].id as string;
    const free = expectStatus(await book(tenant, show.event.id, show.ticketType.id, { add_ons: [{ variant: tee, quantity: 2 }], shipping_address: address }), 201).data.booking;
    expect(free).toMatchObject({ status: 'paid', amount_total: 0 });
    expect(await variantRow(t, tee)).toMatchObject({ stock: 3, reserved: 0, sold: 2 });

    expectStatus(await t.http().post(`/v1/organizer/events/${show.event.id}/cancel`).set(sk(tenant)).send({}), 200);
    expect(await cancelOrdersOfEvent(t.ctx, { tenantId: tenant.tenant.id, livemode: false }, show.event.id)).toBe(1);
    const cancelled = await readOrder(t, tenant, free.id);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.line_items.map((l: { quantity_refunded: number }) => l.quantity_refunded)).toEqual([1, 2]);
    expect(await variantRow(t, tee)).toMatchObject({ stock: 5, reserved: 0, sold: 0 });
    // Run again (a retried job): nothing moves twice.
    expect(await cancelOrdersOfEvent(t.ctx, { tenantId: tenant.tenant.id, livemode: false }, show.event.id)).toBe(0);
    expect(await variantRow(t, tee)).toMatchObject({ stock: 5, sold: 0 });
  });

  it('refuses add-ons it cannot sell, holding neither seats nor stock', async () => {
    const { tenant, show, tee, eventId, ticketType } = await showWithMerch('AddonRefusals', 2);
    const seatsBefore = (await bucketsOf(t, eventId))[`e:${show.event.id}`];
    const res = await book(tenant, eventId, ticketType, { add_ons: [{ variant: tee, quantity: 3 }], shipping_address: address });
    expectError(res, 409, 'out_of_stock', { param: 'add_ons' });
    expect(res.body.error.details).toEqual({ variants: [tee] });
    expect((await bucketsOf(t, eventId))[`e:${show.event.id}`]).toMatchObject({ held: seatsBefore!.held });
    expect(await variantRow(t, tee)).toMatchObject({ reserved: 0 });

    const elsewhere = await creatorOrg(t, tenant, 'other_band');
    const theirs = await product(t, tenant, elsewhere.id);
    expectError(await book(tenant, eventId, ticketType, { add_ons: [{ variant: theirs.variants[0].id, quantity: 1 }], shipping_address: address }), 422, 'product_unavailable', {
      param: 'add_ons.0.variant',
      reason: 'other_organization',
    });
    expectError(await book(tenant, eventId, ticketType, { add_ons: [{ variant: tee, quantity: 1 }] }), 422, 'validation_failed', { param: 'shipping_address' });
    expectError(await book(tenant, eventId, ticketType, { add_ons: [{ variant: tee, quantity: 0 }], shipping_address: address }), 422, 'validation_failed');
    expectError(await book(tenant, eventId, ticketType, { shipping_address: address }), 422, 'validation_failed', { param: 'shipping_address' });
    expectStatus(await t.http().patch(`/v1/commerce/products/${(await variantRow(t, tee)).product_id}`).set(sk(tenant)).send({ status: 'archived' }), 200);
    expectError(await book(tenant, eventId, ticketType, { add_ons: [{ variant: tee, quantity: 1 }], shipping_address: address }), 422, 'product_unavailable', { reason: 'not_published' });

    const noCommerce = await t.tenant('NoShop', ['events']);
    const plain = await seedEvent(t, noCommerce, { ticketTypes: [{ price: 1500 }] });
    expectError(await book(noCommerce, plain.event.id, plain.ticketType.id, { add_ons: [{ variant: tee, quantity: 1 }] }), 403, 'product_not_enabled');
    // Without add-ons, the booking is as it always was.
    const alone = expectStatus(await book(tenant, eventId, ticketType, {}), 201).data.booking;
    expect(alone).toMatchObject({ amount_total: 1500, amount_shipping: 0, shipping_method: null, fulfillment_status: null });
    expect(alone.line_items).toHaveLength(1);
  });
});
