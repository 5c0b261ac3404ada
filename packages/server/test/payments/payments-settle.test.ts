import { describe, expect, it } from 'vitest';
import { reconcileDuePayments } from '../../src/modules/payments/reconcile/reconcile-payments.job';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { sk, type Tenant } from '../ticketing/booking-fixtures';
import { card, eventsOf, getOrder, pay, pendingBooking, phone } from '../ticketing/payments-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

const settle = (tenant: Tenant, id: string, body: object, mode: 'test' | 'live' = 'test') =>
  t.http().post(`/v1/test_helpers/payments/${id}/settle`).set(sk(tenant, mode)).send(body);

/** A booking whose payer never answers: its payment stays pending. */
async function pendingPayment(tenant: Tenant) {
  const b = await pendingBooking(t, tenant);
  const payment = expectStatus(await pay(t, b.session, phone('+254711000003')), 200).data.payment;
  expect(payment).toMatchObject({ status: 'pending', next_action: { type: 'confirm_on_phone', phone_hint: '0003' } });
  return { ...b, payment };
}

describe('POST /v1/test_helpers/payments/{id}/settle', () => {
  it('settles a pending payment as a provider confirmation would: the order is paid once', async () => {
    const tenant = await t.tenant();
    const b = await pendingPayment(tenant);
    const settled = expectStatus(await settle(tenant, b.payment.id, { outcome: 'succeeded' }), 200).data;
    expect(settled).toMatchObject({ status: 'succeeded', late: false, next_action: null });
    expect(await getOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'paid', amount_paid: 1500 });
    expect((await eventsOf(t, tenant, 'payments.payment.succeeded')).map((e) => e.data.object.id)).toEqual([b.payment.id]);
    expectError(await settle(tenant, b.payment.id, { outcome: 'succeeded' }), 409, 'invalid_state_transition');
  });

  it('fails one with the failure code given; the order keeps waiting', async () => {
    const tenant = await t.tenant();
    const b = await pendingPayment(tenant);
    expect(expectStatus(await settle(tenant, b.payment.id, { outcome: 'failed', failure_code: 'invalid_pin' }), 200).data).toMatchObject({
      status: 'failed',
      failure_code: 'invalid_pin',
    });
    expect((await getOrder(t, tenant, b.booking.id)).status).toBe('pending');
  });

  it('is test mode only, for the tenant own payments', async () => {
    const tenant = await t.tenant();
    const b = await pendingPayment(tenant);
    expectError(await settle(tenant, b.payment.id, { outcome: 'succeeded' }, 'live'), 403, 'live_mode_unavailable');
    expectError(await settle(await t.tenant('Other'), b.payment.id, { outcome: 'succeeded' }), 404, 'resource_not_found');
    expectError(await settle(tenant, b.payment.id, { outcome: 'maybe' }), 422, 'validation_failed');
  });

  it('two confirmations at once pay the order once', async () => {
    const tenant = await t.tenant();
    const b = await pendingPayment(tenant);
    const answers = await Promise.all([settle(tenant, b.payment.id, { outcome: 'succeeded' }), settle(tenant, b.payment.id, { outcome: 'succeeded' })]);
    // The second finds the payment succeeded under its lock and changes nothing (or is refused before it: 409).
    for (const r of answers) expect([200, 409]).toContain(r.status);
    expect(answers.map((r) => r.body.data?.status).filter(Boolean)).toEqual(answers.filter((r) => r.status === 200).map(() => 'succeeded'));
    expect(await eventsOf(t, tenant, 'payments.payment.succeeded')).toHaveLength(1);
    expect(await getOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'paid', amount_paid: 1500 });
    expect(await eventsOf(t, tenant, 'events.order.paid')).toHaveLength(1);
  });

  it('a second approved payment of a paid order is refunded at once (duplicate_payment), never counted', async () => {
    const tenant = await t.tenant();
    const b = await pendingPayment(tenant);
    expectStatus(await pay(t, b.session, card('4242424242424242')), 200);
    const late = expectStatus(await settle(tenant, b.payment.id, { outcome: 'succeeded' }), 200).data;
    expect(late.status).toBe('succeeded');
    const refunds = expectStatus(await t.http().get('/v1/refunds').query({ payment: b.payment.id }).set(sk(tenant)), 200).data;
    expect(refunds).toMatchObject([{ reason: 'duplicate_payment', amount: 1500, status: 'succeeded' }]);
    expect(await getOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'paid', amount_paid: 1500, amount_refunded: 0 });
  });
});

describe('late payments (late_payment_policy)', () => {
  it('accept_if_available: a payment confirmed after the order expired takes the seats again; late: true', async () => {
    const tenant = await t.tenant();
    const b = await pendingPayment(tenant);
    expectStatus(await t.http().post(`/v1/test_helpers/orders/${b.booking.id}/expire`).set(sk(tenant)), 200);
    const paid = expectStatus(await settle(tenant, b.payment.id, { outcome: 'succeeded' }), 200).data;
    expect(paid).toMatchObject({ status: 'succeeded', late: true });
    expect((await getOrder(t, tenant, b.booking.id)).status).toBe('paid');
    const late = expectStatus(await t.http().get('/v1/payments').query({ late: 'true' }).set(sk(tenant)), 200).data;
    expect(late.map((p: any) => p.id)).toEqual([b.payment.id]);
  });

  it('refund: the late payment is refunded (late_payment) and the order stays expired', async () => {
    const tenant = await t.tenant();
    expectStatus(await t.http().patch('/v1/payments/settings').set(sk(tenant)).send({ late_payment_policy: 'refund' }), 200);
    const b = await pendingPayment(tenant);
    expectStatus(await t.http().post(`/v1/test_helpers/orders/${b.booking.id}/expire`).set(sk(tenant)), 200);
    expect(expectStatus(await settle(tenant, b.payment.id, { outcome: 'succeeded' }), 200).data).toMatchObject({ late: true });
    expect(await getOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'expired', amount_paid: 0 });
    const refunds = expectStatus(await t.http().get('/v1/refunds').query({ payment: b.payment.id }).set(sk(tenant)), 200).data;
    expect(refunds).toMatchObject([{ reason: 'late_payment', amount: 1500, status: 'succeeded' }]);
  });

  it('a cancelled order is never paid: its late payment is refunded (order_cancelled)', async () => {
    const tenant = await t.tenant();
    const b = await pendingPayment(tenant);
    expectStatus(await t.http().post(`/v1/orders/${b.booking.id}/cancel`).set(sk(tenant)), 200);
    expectStatus(await settle(tenant, b.payment.id, { outcome: 'succeeded' }), 200);
    expect((await getOrder(t, tenant, b.booking.id)).status).toBe('cancelled');
    const refunds = expectStatus(await t.http().get('/v1/refunds').query({ payment: b.payment.id }).set(sk(tenant)), 200).data;
    expect(refunds).toMatchObject([{ reason: 'order_cancelled', amount: 1500 }]);
  });
});

describe('the simulator magic values of payments', () => {
  it('+254711000004 fails cancelled_by_user, +254711000006 fails timeout', async () => {
    const tenant = await t.tenant();
    const b = await pendingBooking(t, tenant);
    expect(expectStatus(await pay(t, b.session, phone('+254711000004')), 200).data.payment).toMatchObject({ status: 'failed', failure_code: 'cancelled_by_user' });
    expect(expectStatus(await pay(t, b.session, phone('+254711000006')), 200).data.payment).toMatchObject({ status: 'failed', failure_code: 'timeout' });
  });

  for (const payer of [phone('+254711000008'), card('4000000000007726')]) {
    it(`${'phone' in payer ? payer.phone : payer.card_number} succeeds; its refund stays pending until the test helper settles it`, async () => {
      const tenant = await t.tenant();
      const b = await pendingBooking(t, tenant);
      expectStatus(await pay(t, b.session, payer), 200);
      const refund = expectStatus(await t.http().post(`/v1/orders/${b.booking.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', 'p').send({}), 201).data;
      expect(refund.status).toBe('pending');
      expect(await getOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'paid', amount_refunded: 0 });
      // The pending amount is not refundable twice.
      expectError(await t.http().post(`/v1/orders/${b.booking.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', 'q').send({}), 409, 'order_not_refundable');
      expect((await eventsOf(t, tenant, 'payments.refund.created')).map((e) => e.data.object.id)).toEqual([refund.id]);
      const settled = expectStatus(await t.http().post(`/v1/test_helpers/refunds/${refund.id}/settle`).set(sk(tenant)).send({}), 200).data;
      expect(settled).toMatchObject({ status: 'succeeded' });
      expect(await getOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'refunded', amount_refunded: 1500 });
      expectError(await t.http().post(`/v1/test_helpers/refunds/${refund.id}/settle`).set(sk(tenant)).send({}), 409, 'invalid_state_transition');
    });
  }

  it('a pending refund that fails frees its amount again', async () => {
    const tenant = await t.tenant();
    const b = await pendingBooking(t, tenant);
    expectStatus(await pay(t, b.session, phone('+254711000008')), 200);
    const refund = expectStatus(await t.http().post(`/v1/orders/${b.booking.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', 'p').send({}), 201).data;
    expectStatus(await t.http().post(`/v1/test_helpers/refunds/${refund.id}/settle`).set(sk(tenant)).send({ outcome: 'failed' }), 200);
    expect(await getOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'paid', amount_refunded: 0 });
    expectStatus(await t.http().post(`/v1/orders/${b.booking.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', 'again').send({}), 201);
  });
});

describe('payments-reconcile', () => {
  it('asks again on its schedule, and fails a payment nobody answered within 24 h (timeout)', async () => {
    const tenant = await t.tenant();
    const b = await pendingPayment(tenant);
    const row = () => t.ctx.db.selectFrom('payments').selectAll().where('id', '=', b.payment.id).executeTakeFirstOrThrow();
    const created = new Date((await row()).created_at).getTime();
    expect(new Date((await row()).next_check_at!).getTime() - created).toBeGreaterThanOrEqual(29_000);
    try {
      t.ctx.clock = () => new Date(created + 31_000);
      await reconcileDuePayments(t.ctx);
      const once = await row();
      expect(once).toMatchObject({ status: 'pending', checks: 1 });
      expect(new Date(once.next_check_at!).getTime() - created).toBe(60_000);
      t.ctx.clock = () => new Date(created + 25 * 3600_000);
      await reconcileDuePayments(t.ctx);
    } finally {
      t.ctx.clock = undefined;
    }
    expect(await row()).toMatchObject({ status: 'failed', failure_code: 'timeout', next_check_at: null });
    expect((await eventsOf(t, tenant, 'payments.payment.failed')).map((e) => e.data.object.id)).toContain(b.payment.id);
  });

  it('a confirmation racing the job pays once', async () => {
    const tenant = await t.tenant();
    const b = await pendingPayment(tenant);
    await t.ctx.db.updateTable('payments').set({ next_check_at: new Date(0) }).where('id', '=', b.payment.id).execute();
    const [answer] = await Promise.all([settle(tenant, b.payment.id, { outcome: 'succeeded' }), reconcileDuePayments(t.ctx)]);
    expect(answer.status).toBe(200);
    expect(await getOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'paid', amount_paid: 1500 });
    expect(await eventsOf(t, tenant, 'payments.payment.succeeded')).toHaveLength(1);
  });
});
