import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { sk } from '../ticketing/booking-fixtures';
import { card, eventsOf, paidBooking, pay, pendingBooking, phone } from '../ticketing/payments-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

describe('GET /v1/payments and /v1/payments/{id}', () => {
  it('lists every attempt with its provider fields, filters, and reads one; another tenant or mode gets 404', async () => {
    const tenant = await t.tenant();
    const b = await pendingBooking(t, tenant);
    expectStatus(await pay(t, b.session, card('4000000000000002')), 200);
    expectStatus(await pay(t, b.session, phone('+254711000000')), 200);
    const list = expectStatus(await t.http().get('/v1/payments').query({ order: b.booking.id }).set(sk(tenant)), 200);
    expect(list.data.map((p: any) => p.status)).toEqual(['succeeded', 'failed']);
    const [succeeded, failed] = list.data;
    expect(succeeded).toMatchObject({
      object: 'payment',
      provider: 'simulated',
      provider_config: null,
      method: 'mobile_money',
      amount: 1500,
      payer_hint: '0000',
      organization: b.event.organization_id ?? expect.stringMatching(/^org_/),
      amount_refunded: 0,
      late: false,
      next_action: null,
      metadata: {},
    });
    expect(succeeded.provider_reference).toMatch(/^sim_/);
    expect(failed).toMatchObject({ failure_code: 'declined', method: 'card' });
    const filtered = (q: Record<string, string>) => t.http().get('/v1/payments').query({ order: b.booking.id, ...q }).set(sk(tenant));
    expect(expectStatus(await filtered({ status: 'failed' }), 200).data.map((p: any) => p.id)).toEqual([failed.id]);
    expect(expectStatus(await filtered({ method: 'mobile_money' }), 200).data.map((p: any) => p.id)).toEqual([succeeded.id]);
    expect(expectStatus(await filtered({ provider: 'stripe' }), 200).data).toEqual([]);
    expect(expectStatus(await filtered({ late: 'false' }), 200).data).toHaveLength(2);
    expect(expectStatus(await filtered({ 'created[gt]': new Date(Date.now() + 60_000).toISOString() }), 200).data).toEqual([]);
    expectError(await filtered({ status: 'lost' }), 422, 'validation_failed');
    expect(expectStatus(await t.http().get(`/v1/payments/${succeeded.id}`).set(sk(tenant)), 200).data).toEqual(succeeded);

    const other = await t.tenant('Other');
    expectError(await t.http().get(`/v1/payments/${succeeded.id}`).set(sk(other)), 404, 'resource_not_found');
    expectError(await t.http().get(`/v1/payments/${succeeded.id}`).set(sk(tenant, 'live')), 404, 'resource_not_found');
    expectError(await t.http().get('/v1/payments/pay_nope').set(sk(tenant)), 404, 'resource_not_found');
    expect(expectStatus(await t.http().get('/v1/payments').set(sk(other)), 200).data).toEqual([]);
  });

  it('announces a confirmed payment as payments.payment.succeeded', async () => {
    const tenant = await t.tenant();
    const b = await paidBooking(t, tenant);
    const events = await eventsOf(t, tenant, 'payments.payment.succeeded');
    expect(events.map((e) => e.data.object.order)).toEqual([b.booking.id]);
  });

  it('needs the payments product and a payments scope', async () => {
    const tenant = await t.tenant('NoPayments', ['events']);
    expectError(await t.http().get('/v1/payments').set(sk(tenant)), 403, 'product_not_enabled');
    expectError(await t.http().get('/v1/payments').set({ Authorization: 'Bearer nope' }), 401, 'api_key_invalid');
  });
});

describe('GET /v1/refunds and /v1/refunds/{id}', () => {
  it('lists refunds with the payment they return money of, filters by order, payment, status and source', async () => {
    const tenant = await t.tenant();
    const b = await paidBooking(t, tenant);
    const [payment] = expectStatus(await t.http().get('/v1/payments').query({ order: b.booking.id }).set(sk(tenant)), 200).data;
    const refund = expectStatus(
      await t.http().post(`/v1/orders/${b.booking.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', 'r1').send({ amount: 500 }),
      201,
    ).data;
    expect(refund).toMatchObject({ payment: payment.id, source: 'provider', provider: 'simulated', status: 'succeeded', line_items: [] });
    const manual = expectStatus(
      await t.http().post(`/v1/orders/${b.booking.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', 'r2').send({ amount: 100, manual: true, payment: payment.id }),
      201,
    ).data;
    expect(manual).toMatchObject({ source: 'manual', provider: null, status: 'succeeded' });
    const q = (query: Record<string, string>) => t.http().get('/v1/refunds').query(query).set(sk(tenant));
    expect(expectStatus(await q({ order: b.booking.id }), 200).data.map((r: any) => r.id)).toEqual([manual.id, refund.id]);
    expect(expectStatus(await q({ payment: payment.id, source: 'manual' }), 200).data.map((r: any) => r.id)).toEqual([manual.id]);
    expect(expectStatus(await q({ status: 'failed' }), 200).data).toEqual([]);
    expect(expectStatus(await t.http().get(`/v1/payments/${payment.id}`).set(sk(tenant)), 200).data.amount_refunded).toBe(600);
    expect(expectStatus(await t.http().get(`/v1/refunds/${refund.id}`).set(sk(tenant)), 200).data).toEqual(refund);
    const other = await t.tenant('Other');
    expectError(await t.http().get(`/v1/refunds/${refund.id}`).set(sk(other)), 404, 'resource_not_found');
    expectError(await t.http().get('/v1/refunds/re_nope').set(sk(tenant)), 404, 'resource_not_found');
  });

  it('refuses more than is left of the payment, naming what the payment and the order still hold', async () => {
    const tenant = await t.tenant();
    const b = await paidBooking(t, tenant);
    const res = await t.http().post(`/v1/orders/${b.booking.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', 'big').send({ amount: 1501 });
    expect(expectError(res, 422, 'refund_amount_too_large').details).toMatchObject({ refundable: 1500, order_refundable: 1500 });
  });
});
