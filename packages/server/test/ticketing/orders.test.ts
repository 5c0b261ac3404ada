import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { expireDuePendingOrders } from '../../src/modules/ticketing/orders/expire-orders.job';
import { markOrderPaid } from '../../src/modules/ticketing/orders/order-transitions';
import { bookingBody, bookOk, bucketsOf, seedEvent, sk, type Tenant } from './booking-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
const get = (tenant: Tenant, path: string, query: object = {}) => t.http().get(path).query(query).set(sk(tenant));
const post = (tenant: Tenant, path: string, mode: 'test' | 'live' = 'test') => t.http().post(path).set(sk(tenant, mode));
const eventTypes = async (tenant: Tenant, type: string) =>
  (expectStatus(await get(tenant, '/v1/events', { type }), 200).data as Array<{ data: { object: { id: string; status: string } } }>).map((e) => e.data.object);

describe('orders', () => {
  it('lists with filters and cursor pages, retrieves by id and by external id', async () => {
    const tenant = await t.tenant();
    const a = await seedEvent(t, tenant, { ticketTypes: [{ price: 1000 }] });
    const b = await seedEvent(t, tenant, { ticketTypes: [{ price: 0 }] });
    const first = (await bookOk(t, tenant, a.event.slug, bookingBody(a.ticketType.id))).booking;
    const second = (await bookOk(t, tenant, a.event.slug, bookingBody(a.ticketType.id))).booking;
    const free = (await bookOk(t, tenant, b.event.slug, bookingBody(b.ticketType.id))).booking;
    const keyed = expectStatus(await t.http().post(`/v1/events/${a.event.slug}/book`).set(sk(tenant)).send(bookingBody(a.ticketType.id, 1, { external_id: 'shop-9' })), 201).data.booking;

    const all = expectStatus(await get(tenant, '/v1/orders'), 200);
    expect(all.data.map((o: { id: string }) => o.id)).toEqual([keyed.id, free.id, second.id, first.id]);
    const page = expectStatus(await get(tenant, '/v1/orders', { limit: 2 }), 200);
    expect(page.meta.pagination.has_more).toBe(true);
    const next = expectStatus(await get(tenant, '/v1/orders', { limit: 2, cursor: page.meta.pagination.next_cursor }), 200);
    expect(next.data.map((o: { id: string }) => o.id)).toEqual([second.id, first.id]);
    expect(expectStatus(await get(tenant, '/v1/orders', { event: a.event.slug }), 200).data).toHaveLength(3);
    expect(expectStatus(await get(tenant, '/v1/orders', { event: b.event.id }), 200).data.map((o: { id: string }) => o.id)).toEqual([free.id]);
    expect(expectStatus(await get(tenant, '/v1/orders', { event: 'unknown-event' }), 200).data).toEqual([]);
    expect(expectStatus(await get(tenant, '/v1/orders', { status: 'paid' }), 200).data.map((o: { id: string }) => o.id)).toEqual([free.id]);
    const since = new Date(new Date(second.created_at).getTime()).toISOString();
    expect(expectStatus(await get(tenant, '/v1/orders', { 'created[gte]': since }), 200).data.map((o: { id: string }) => o.id)).toContain(second.id);
    expect(expectStatus(await get(tenant, '/v1/orders', { 'created[lt]': first.created_at }), 200).data).toEqual([]);

    expect(expectStatus(await get(tenant, `/v1/orders/${first.id}`), 200).data).toEqual(first);
    expect(expectStatus(await get(tenant, '/v1/orders/external/shop-9'), 200).data.id).toBe(keyed.id);
    expectError(await get(tenant, '/v1/orders/external/nope'), 404, 'resource_not_found');
    expectError(await get(tenant, '/v1/orders/ord_nope'), 404, 'resource_not_found');
    expectError(await get(tenant, '/v1/orders', { status: 'lost' }), 422, 'validation_failed', { param: 'status' });
  });

  it('cancels a pending order only: seats, coupon and tickets released, events.order.cancelled; else 409 INVALID_STATE', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant, {
      capacity: 10,
      ticketTypes: [{ price: 1000 }],
      coupons: [{ code: 'C', discount_type: 'percent', value: 10, max_uses: 5 }],
    });
    const { booking } = await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 3, { coupon_code: 'C' }));
    const cancelled = expectStatus(await post(tenant, `/v1/orders/${booking.id}/cancel`), 200).data;
    expect(cancelled).toMatchObject({ status: 'cancelled', amount_total: 2700 });
    expect(cancelled.cancelled_at).toEqual(expect.any(String));
    expect(cancelled.attendees.map((a: { ticket: { status: string } }) => a.ticket.status)).toEqual(['void', 'void', 'void']);
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 0, sold: 0 }, [`t:${ticketType.id}`]: { held: 0 } });
    const coupon = await t.ctx.db.selectFrom('coupons').selectAll().where('event_id', '=', event.id).executeTakeFirstOrThrow();
    expect(coupon.uses_held).toBe(0);
    const session = await t.ctx.db.selectFrom('checkout_sessions').select('status').where('order_id', '=', booking.id).executeTakeFirstOrThrow();
    expect(session.status).toBe('expired');
    expect((await eventTypes(tenant, 'events.order.cancelled'))[0]).toMatchObject({ id: booking.id, status: 'cancelled' });
    // Again, or on a paid order: the reduced error shape.
    const again = await post(tenant, `/v1/orders/${booking.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: { code: 'INVALID_STATE', message: expect.any(String) } });
    const free = await seedEvent(t, tenant, { ticketTypes: [{ price: 0 }] });
    const paid = (await bookOk(t, tenant, free.event.slug, bookingBody(free.ticketType.id))).booking;
    expect((await post(tenant, `/v1/orders/${paid.id}/cancel`)).status).toBe(409);
    expectError(await post(tenant, '/v1/orders/ord_nope/cancel'), 404, 'resource_not_found');
    const other = await t.tenant('Other');
    expectError(await post(other, `/v1/orders/${paid.id}/cancel`), 404, 'resource_not_found');
  });

  it('expires through the test helper (test mode only) and through the sweep once expires_at passes', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant, { capacity: 10, ticketTypes: [{ price: 1000 }] });
    const one = (await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 2))).booking;
    const expired = expectStatus(await post(tenant, `/v1/test_helpers/orders/${one.id}/expire`), 200).data;
    expect(expired).toMatchObject({ status: 'expired' });
    expect(expired.expired_at).toEqual(expect.any(String));
    expect((await eventTypes(tenant, 'events.order.expired'))[0]).toMatchObject({ id: one.id, status: 'expired' });
    expect((await post(tenant, `/v1/test_helpers/orders/${one.id}/expire`)).status).toBe(409);
    expectError(await post(tenant, `/v1/test_helpers/orders/${one.id}/expire`, 'live'), 403, 'live_mode_unavailable');

    const two = (await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 1))).booking;
    expect(await expireDuePendingOrders(t.ctx)).toBe(0);
    t.ctx.clock = () => new Date(Date.now() + 16 * 60_000);
    try {
      expect(await expireDuePendingOrders(t.ctx)).toBeGreaterThanOrEqual(1);
    } finally {
      t.ctx.clock = undefined;
    }
    expect(expectStatus(await get(tenant, `/v1/orders/${two.id}`), 200).data.status).toBe('expired');
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 0, sold: 0 } });
  });

  it('a payment after expiry takes the seats again when there is room, and reports when there is none', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant, { ticketTypes: [{ price: 1000, quantity: 2 }] });
    const scope = { tenantId: tenant.tenant.id, livemode: false };
    const pay = (id: string) => t.ctx.db.transaction().execute((trx) => markOrderPaid(trx, t.ctx, scope, id));
    const late = (await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 1))).booking;
    expectStatus(await post(tenant, `/v1/test_helpers/orders/${late.id}/expire`), 200);
    const retaken = await pay(late.id);
    expect(retaken.outcome).toBe('paid');
    expect(retaken.order).toMatchObject({ status: 'paid', expired_at: null, amount_paid: 1000 });
    expect(retaken.order.attendees[0]!.ticket.status).toBe('valid');
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`t:${ticketType.id}`]: { held: 0, sold: 1 } });

    const lost = (await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 1))).booking;
    expectStatus(await post(tenant, `/v1/test_helpers/orders/${lost.id}/expire`), 200);
    await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 1));
    const refused = await pay(lost.id);
    expect(refused.outcome).toBe('seats_unavailable');
    expect(refused.order.status).toBe('expired');
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`t:${ticketType.id}`]: { held: 1, sold: 1 } });
    const row = await t.ctx.db.selectFrom('orders').select('seats_state').where('id', '=', lost.id).executeTakeFirstOrThrow();
    expect(row.seats_state).toBe('released');
  });

  it('decides races on the order: two cancels give one 200 and one 409; a payment racing an expiry ends paid with its seats sold once', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant, { capacity: 20, ticketTypes: [{ price: 1000 }] });
    const scope = { tenantId: tenant.tenant.id, livemode: false };
    const a = (await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 2))).booking;
    const cancels = await Promise.all([0, 1].map(() => post(tenant, `/v1/orders/${a.id}/cancel`)));
    expect(cancels.map((r) => r.status).sort()).toEqual([200, 409]);
    for (let i = 0; i < 5; i++) {
      const b = (await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 1))).booking;
      const [paid] = await Promise.all([
        t.ctx.db.transaction().execute((trx) => markOrderPaid(trx, t.ctx, scope, b.id)),
        post(tenant, `/v1/test_helpers/orders/${b.id}/expire`),
      ]);
      expect(paid.outcome).toBe('paid');
      expect(expectStatus(await get(tenant, `/v1/orders/${b.id}`), 200).data.status).toBe('paid');
    }
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 0, sold: 5 }, [`t:${ticketType.id}`]: { held: 0, sold: 5 } });
  });
});
