import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { bucketsOf, sk, type Tenant } from './booking-fixtures';
import { eventsOf, getOrder, paidBooking, pendingBooking } from './payments-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

let keyCounter = 0;
const refund = (tenant: Tenant, order: string, body: object = {}, key: string | null = `refund-${keyCounter++}`) => {
  const req = t.http().post(`/v1/orders/${order}/refunds`).set(sk(tenant));
  return (key === null ? req : req.set('Idempotency-Key', key)).send(body);
};

async function liveStream(tenant: Tenant) {
  return expectStatus(await t.http().post('/v1/streams/live_streams').set(sk(tenant)).send({}), 201).data as { id: string };
}

describe('POST /v1/orders/{id}/refunds', () => {
  it('needs an Idempotency-Key, and a repeat with the same key answers the same refund', async () => {
    const tenant = await t.tenant();
    const { booking } = await paidBooking(t, tenant);
    expectError(await refund(tenant, booking.id, { amount: 100 }, null), 400, 'idempotency_key_required', { param: 'Idempotency-Key' });
    const first = expectStatus(await refund(tenant, booking.id, { amount: 100 }, 'same'), 201).data;
    const again = await refund(tenant, booking.id, { amount: 100 }, 'same');
    expect(expectStatus(again, 201).data.id).toBe(first.id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await getOrder(t, tenant, booking.id)).toMatchObject({ amount_refunded: 100 });
  });

  it('a partial refund leaves the order partially_refunded; the rest makes it refunded, releasing seats and the stream', async () => {
    const tenant = await t.tenant();
    const stream = await liveStream(tenant);
    const { booking, event } = await paidBooking(t, tenant, { capacity: 5, live_stream: stream.id }, 2);
    expect(expectStatus(await t.http().get('/v1/access/entitlements').query({ status: 'active' }).set(sk(tenant)), 200).data).toHaveLength(2);

    const part = expectStatus(await refund(tenant, booking.id, { amount: 1000, reason: 'one guest cannot come' }), 201).data;
    expect(part).toMatchObject({ object: 'refund', order: booking.id, amount: 1000, currency: 'KES', status: 'succeeded', reason: 'one guest cannot come', failure_code: null });
    expect(part.id).toMatch(/^re_/);
    expect(await getOrder(t, tenant, booking.id)).toMatchObject({ status: 'partially_refunded', amount_paid: 3000, amount_refunded: 1000 });
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { sold: 2 } });

    const rest = expectStatus(await refund(tenant, booking.id), 201).data;
    expect(rest.amount).toBe(2000);
    const order = await getOrder(t, tenant, booking.id);
    expect(order).toMatchObject({ status: 'refunded', amount_refunded: 3000 });
    expect(order.attendees.map((a: any) => a.ticket.status)).toEqual(['void', 'void']);
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 0, sold: 0 } });
    expect(expectStatus(await t.http().get('/v1/access/entitlements').query({ status: 'revoked' }).set(sk(tenant)), 200).data).toHaveLength(2);

    const refunded = await eventsOf(t, tenant, 'events.order.refunded');
    expect(refunded.map((e) => e.data.object)).toMatchObject([{ id: booking.id, object: 'order', status: 'refunded' }]);
    const succeeded = await eventsOf(t, tenant, 'payments.refund.succeeded');
    expect(succeeded.map((e) => e.data.object.id).sort()).toEqual([part.id, rest.id].sort());

    const list = expectStatus(await t.http().get(`/v1/orders/${booking.id}/refunds`).set(sk(tenant)), 200);
    expect(list.data.map((r: any) => r.id)).toEqual([rest.id, part.id]);
    expect(list.meta.pagination.has_more).toBe(false);
    expectError(await refund(tenant, booking.id, { amount: 1 }), 409, 'order_not_refundable');
  });

  it('refuses more than is left to refund (422, param amount) and unpaid orders (409)', async () => {
    const tenant = await t.tenant();
    const { booking } = await paidBooking(t, tenant);
    const err = expectError(await refund(tenant, booking.id, { amount: 1501 }), 422, 'refund_amount_too_large', { param: 'amount' });
    expect(err.details).toMatchObject({ refundable: 1500 });
    expectStatus(await refund(tenant, booking.id, { amount: 1000 }), 201);
    expect(expectError(await refund(tenant, booking.id, { amount: 501 }), 422, 'refund_amount_too_large').details).toMatchObject({ refundable: 500 });
    expectError(await refund(tenant, booking.id, { amount: 0 }), 422, 'validation_failed');

    const pending = await pendingBooking(t, tenant);
    expectError(await refund(tenant, pending.booking.id), 409, 'order_not_refundable');
    expectError(await refund(tenant, 'ord_nope'), 404, 'resource_not_found');
    const other = await t.tenant('Other');
    expectError(await refund(other, booking.id), 404, 'resource_not_found');
    expectStatus(await t.http().get(`/v1/orders/${booking.id}/refunds`).set(sk(tenant)), 200);
    expectError(await t.http().get(`/v1/orders/${booking.id}/refunds`).set(sk(other)), 404, 'resource_not_found');
    expectError(await t.http().get(`/v1/orders/${booking.id}/refunds`).set(sk(tenant, 'live')), 404, 'resource_not_found');
    expectError(await t.http().post(`/v1/orders/${booking.id}/refunds`).set(sk(tenant, 'live')).set('Idempotency-Key', 'live').send({}), 404, 'resource_not_found');
  });

  it('refunds racing on one order never return more than was paid', async () => {
    const tenant = await t.tenant();
    const { booking, event } = await paidBooking(t, tenant, { capacity: 5 }, 2);
    const answers = await Promise.all(Array.from({ length: 8 }, () => refund(tenant, booking.id, { amount: 1000 })));
    const ok = answers.filter((r) => r.status === 201);
    expect(ok).toHaveLength(3);
    for (const r of answers.filter((a) => a.status !== 201)) expect([409, 422]).toContain(r.status);
    expect(await getOrder(t, tenant, booking.id)).toMatchObject({ status: 'refunded', amount_refunded: 3000 });
    const rows = await t.ctx.db.selectFrom('refunds').select(['amount', 'status']).where('order_id', '=', booking.id).execute();
    expect(rows.reduce((sum, r) => sum + (r.status === 'succeeded' ? r.amount : 0), 0)).toBe(3000);
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 0, sold: 0 } });
    expect((await eventsOf(t, tenant, 'events.order.refunded')).filter((e) => e.data.object.id === booking.id)).toHaveLength(1);
  });

  it('a refund the network refuses is recorded failed, counts for nothing and sends payments.refund.failed', async () => {
    const tenant = await t.tenant();
    const { booking } = await paidBooking(t, tenant, {}, 1, '4000000000005126');
    const failed = expectStatus(await refund(tenant, booking.id), 201).data;
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'declined', amount: 1500 });
    expect(await getOrder(t, tenant, booking.id)).toMatchObject({ status: 'paid', amount_refunded: 0 });
    expect((await eventsOf(t, tenant, 'payments.refund.failed'))[0]!.data.object).toMatchObject({ id: failed.id, status: 'failed' });
  });
});
