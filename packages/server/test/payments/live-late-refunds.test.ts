import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileDuePayments } from '../../src/modules/payments/reconcile/reconcile-payments.job';
import { expireDuePendingOrders } from '../../src/modules/ticketing/orders/expire-orders.job';
import { useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { DarajaFake } from '../kit/fakes/daraja-fake';
import { until } from '../kit/fakes/fake-provider';
import { PaystackFake } from '../kit/fakes/paystack-fake';
import { StripeFake } from '../kit/fakes/stripe-fake';
import { sk, type Tenant } from '../ticketing/booking-fixtures';
import { listenForCallbacks } from './inbound-fixtures';
import { applyInbox, inboxOf } from './inbound-kit';
import { goLive, liveBooking, liveOrder, makeChecksDue, makeRefundsDue, mpesaConfig, payLive, paystackConfig, readSession, stripeConfig, submitHostedPage } from './live-checkout-fixtures';

const mpesa = new DarajaFake();
const paystack = new PaystackFake();
const stripe = new StripeFake();
const env: Record<string, string> = { SVC_RATE_LIMIT_PUBLIC: '100000' };
beforeAll(async () => {
  env.MPESA_API_URL = await mpesa.start();
  env.PAYSTACK_API_URL = await paystack.start();
  env.STRIPE_API_URL = await stripe.start();
  env.MPESA_SECURITY_CERTIFICATE = mpesa.certificatePem;
});
afterAll(async () => {
  await Promise.all([mpesa.stop(), paystack.stop(), stripe.stop()]);
});
const t = useTestServer(env);
// The fakes post their callbacks to the addresses the service gives them, as the real providers do.
listenForCallbacks(t);

/** Waits for the inbox of a configuration to hold `n` notifications (callbacks arrive on the fakes' timers). */
async function inboxHolds(configId: string, n: number): Promise<void> {
  const end = Date.now() + 10_000;
  while ((await inboxOf(t, configId)).length < n) {
    if (Date.now() > end) throw new Error(`the inbox of ${configId} never held ${n} notifications`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** An M-Pesa prompt nobody answers, its order expired meanwhile, then approved: the late success reconciliation finds. */
async function lateMpesaPayment(tenant: Tenant) {
  const b = await liveBooking(t, tenant);
  const started = expectStatus(await payLive(t, b.session, { method: 'mobile_money', phone: '+254711000003' }), 200).data;
  await t.ctx.db.updateTable('orders').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', b.booking.id).execute();
  await expireDuePendingOrders(t.ctx);
  expect((await liveOrder(t, tenant, b.booking.id)).status).toBe('expired');
  mpesa.settle(started.payment.provider_reference, 0);
  await makeChecksDue(t);
  await reconcileDuePayments(t.ctx);
  const payment = expectStatus(await t.http().get(`/v1/payments/${started.payment.id}`).set(sk(tenant, 'live')), 200).data;
  return { b, payment };
}

const refundsOf = async (tenant: Tenant, orderId: string) => expectStatus(await t.http().get('/v1/refunds').query({ order: orderId }).set(sk(tenant, 'live')), 200).data;

describe('a live payment confirmed after its order expired (late_payment_policy)', () => {
  it('accept_if_available: the seats are taken again and the order is paid, late', async () => {
    const tenant = await t.tenant();
    await goLive(t, tenant, [mpesaConfig]);
    const { b, payment } = await lateMpesaPayment(tenant);
    expect(payment).toMatchObject({ status: 'succeeded', late: true });
    expect(await liveOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'paid', amount_paid: 150_000 });
    expect(new URL((await readSession(t, b.session)).redirect_to).searchParams.get('outcome')).toBe('succeeded');
  });

  it('refund: the money goes back (late_payment), the order stays expired, and the page forwards with outcome=refunded', async () => {
    const tenant = await t.tenant();
    await goLive(t, tenant, [mpesaConfig], 'refund');
    const { b, payment } = await lateMpesaPayment(tenant);
    expect(payment).toMatchObject({ status: 'succeeded', late: true });
    expect(await liveOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'expired', amount_paid: 0 });
    const refunds = await refundsOf(tenant, b.booking.id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ payment: payment.id, amount: 150_000, reason: 'late_payment', status: 'pending', provider: 'mpesa' });
    expect(new URL((await readSession(t, b.session)).redirect_to).searchParams.get('outcome')).toBe('refunded');
  });
});

describe('a hosted page whose order ends first', () => {
  it('Stripe: the order expires, its Checkout Session is expired at Stripe and the attempt is cancelled', async () => {
    const tenant = await t.tenant();
    await goLive(t, tenant, [stripeConfig]);
    const b = await liveBooking(t, tenant);
    const started = expectStatus(await payLive(t, b.session, { method: 'card' }), 200).data;
    await t.ctx.db.updateTable('orders').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', b.booking.id).execute();
    await expireDuePendingOrders(t.ctx);
    expect(stripe.state.sessions.get(started.payment.provider_reference)!.status).toBe('expired');
    const payment = expectStatus(await t.http().get(`/v1/payments/${started.payment.id}`).set(sk(tenant, 'live')), 200).data;
    expect(payment).toMatchObject({ status: 'cancelled', next_action: null });
    expect((await readSession(t, b.session)).latest_payment).toMatchObject({ status: 'cancelled' });
  });
});

describe('live refunds through the providers', () => {
  it('M-Pesa: the callback pays the order with its receipt; a refund is a reversal, pending until its result arrives', async () => {
    const tenant = await t.tenant();
    const [configId] = await goLive(t, tenant, [mpesaConfig]);
    const b = await liveBooking(t, tenant);
    const started = expectStatus(await payLive(t, b.session, { method: 'mobile_money', phone: '+254711000000' }), 200).data;
    await inboxHolds(configId!, 1);
    await applyInbox(t, configId!);
    expect(await liveOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'paid', amount_paid: 150_000 });
    const paid = expectStatus(await t.http().get(`/v1/payments/${started.payment.id}`).set(sk(tenant, 'live')), 200).data;
    expect(paid.status).toBe('succeeded');
    expect(paid.provider_receipt).toBe(mpesa.stk.get(started.payment.provider_reference)!.receipt);

    const created = expectStatus(await t.http().post(`/v1/orders/${b.booking.id}/refunds`).set(sk(tenant, 'live')).set('Idempotency-Key', `r-${b.booking.id}`).send({ amount: 150_000 }), 201).data;
    expect(created).toMatchObject({ status: 'pending', provider: 'mpesa', payment: started.payment.id });
    await makeRefundsDue(t);
    await reconcileDuePayments(t.ctx);
    const reversal = mpesa.requestsTo('/mpesa/reversal/v1/request').find((r) => (r.json as any).TransactionID === paid.provider_receipt);
    expect(reversal).toBeDefined();
    expect((reversal!.json as any).Amount).toBe(1500);
    expect(expectStatus(await t.http().get(`/v1/refunds/${created.id}`).set(sk(tenant, 'live')), 200).data.status).toBe('pending');
    expect((await liveOrder(t, tenant, b.booking.id)).status).toBe('paid');

    await inboxHolds(configId!, 2);
    await applyInbox(t, configId!);
    const refund = expectStatus(await t.http().get(`/v1/refunds/${created.id}`).set(sk(tenant, 'live')), 200).data;
    expect(refund.status).toBe('succeeded');
    expect(await liveOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'refunded', amount_refunded: 150_000 });
  });

  /** A live M-Pesa order paid by `phone`, and a refund of all of it sent as a reversal whose result is lost. */
  async function lostReversal(phone: string) {
    const tenant = await t.tenant();
    const [configId] = await goLive(t, tenant, [mpesaConfig]);
    const b = await liveBooking(t, tenant);
    expectStatus(await payLive(t, b.session, { method: 'mobile_money', phone }), 200);
    await inboxHolds(configId!, 1);
    await applyInbox(t, configId!);
    const created = expectStatus(await t.http().post(`/v1/orders/${b.booking.id}/refunds`).set(sk(tenant, 'live')).set('Idempotency-Key', `r-${b.booking.id}`).send({ amount: 150_000 }), 201).data;
    mpesa.loseReversalResults = true;
    try {
      await makeRefundsDue(t);
      await reconcileDuePayments(t.ctx);
    } finally {
      mpesa.loseReversalResults = false;
    }
    const row = await t.ctx.db.selectFrom('refunds').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', provider_reference: expect.any(String) });
    // The reversal's result normally comes within minutes: the first Transaction Status waits an hour.
    expect(row.next_check_at!.getTime() - new Date(row.created_at).getTime()).toBeGreaterThanOrEqual(3_600_000);
    return { tenant, configId: configId!, b, refund: row };
  }
  const age = (id: string, ms: number) =>
    t.ctx.db.updateTable('refunds').set({ created_at: new Date(Date.now() - ms), next_check_at: new Date(Date.now() - 1000) }).where('id', '=', id).execute();
  const refundRow = (id: string) => t.ctx.db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('M-Pesa: a reversal whose result never came is asked about with Transaction Status after an hour, and settles by its answer', async () => {
    const { tenant, configId, b, refund } = await lostReversal('+254711000000');
    const asked = mpesa.requestsTo('/mpesa/transactionstatus/v1/query').length;
    await reconcileDuePayments(t.ctx);
    expect(mpesa.requestsTo('/mpesa/transactionstatus/v1/query')).toHaveLength(asked);
    await age(refund.id, 3_601_000);
    await reconcileDuePayments(t.ctx);
    const query = mpesa.requestsTo('/mpesa/transactionstatus/v1/query')[asked]!.json as Record<string, unknown>;
    expect(query).toMatchObject({ CommandID: 'TransactionStatusQuery', OriginalConversationID: refund.provider_reference });
    await inboxHolds(configId, 2);
    expect(await applyInbox(t, configId)).toEqual(['succeeded']);
    expect(await refundRow(refund.id)).toMatchObject({ status: 'succeeded' });
    expect(await liveOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'refunded', amount_refunded: 150_000 });
  });

  it('M-Pesa: a reversal nobody can account for stays pending while Transaction Status finds nothing, then fails after 72 hours and the owners are emailed', async () => {
    const { tenant, configId, b, refund } = await lostReversal('+254711000005');
    await age(refund.id, 3_601_000);
    await reconcileDuePayments(t.ctx);
    await inboxHolds(configId, 2);
    // The status query's "not found" is under its own reference: it decides nothing.
    await applyInbox(t, configId);
    expect(await refundRow(refund.id)).toMatchObject({ status: 'pending' });
    const orderRow = () => t.ctx.db.selectFrom('orders').select(['status', 'amount_refund_pending', 'amount_refunded']).where('id', '=', b.booking.id).executeTakeFirstOrThrow();
    expect(await orderRow()).toMatchObject({ status: 'paid', amount_refund_pending: 150_000 });

    await age(refund.id, 72 * 3_600_000 + 1000);
    await reconcileDuePayments(t.ctx);
    expect(await refundRow(refund.id)).toMatchObject({ status: 'failed', failure_code: 'provider_error', failure_message: expect.stringMatching(/72 hours/) });
    expect(await orderRow()).toMatchObject({ status: 'paid', amount_refund_pending: 0, amount_refunded: 0 });
    const notices = await t.ctx.db.selectFrom('email_outbox').selectAll().where('tenant_id', '=', tenant.tenant.id).where('template', '=', 'refund_failed').execute();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ recipients: 'tenant_owners', livemode: true, subject: 'A refund of 1500.00 KES failed' });
    expect(notices[0]!.body).toContain(refund.id);
    expect(notices[0]!.body).toContain('"manual": true');
  });

  it('Paystack: a refund is pending, sent by reconciliation, and succeeds when Paystack processes it', async () => {
    const tenant = await t.tenant();
    await goLive(t, tenant, [paystackConfig]);
    const b = await liveBooking(t, tenant);
    const started = expectStatus(await payLive(t, b.session, { method: 'card' }), 200).data;
    const back = await submitHostedPage(started.next_action.url, '4242424242424242');
    expect((await t.http().get(new URL(back.location!).pathname)).status).toBe(200);
    expect((await liveOrder(t, tenant, b.booking.id)).status).toBe('paid');

    const created = expectStatus(await t.http().post(`/v1/orders/${b.booking.id}/refunds`).set(sk(tenant, 'live')).set('Idempotency-Key', `r-${b.booking.id}`).send({ amount: 150_000, reason: 'requested_by_customer' }), 201).data;
    expect(created).toMatchObject({ status: 'pending', provider: 'paystack', payment: started.payment.id });
    await makeRefundsDue(t);
    await reconcileDuePayments(t.ctx);
    await until(() => [...paystack.refunds.values()].some((r) => r.transaction.reference === started.payment.provider_reference && r.status === 'processed'));
    await makeRefundsDue(t);
    await reconcileDuePayments(t.ctx);
    const refund = expectStatus(await t.http().get(`/v1/refunds/${created.id}`).set(sk(tenant, 'live')), 200).data;
    expect(refund.status).toBe('succeeded');
    expect(refund.provider_reference).toMatch(/^\d+$/);
    expect(await liveOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'refunded', amount_refunded: 150_000 });
  });

  it('Stripe: a refund is sent to the PaymentIntent and settles through the retrieve', async () => {
    const tenant = await t.tenant();
    await goLive(t, tenant, [stripeConfig]);
    const b = await liveBooking(t, tenant);
    const started = expectStatus(await payLive(t, b.session, { method: 'card' }), 200).data;
    const back = await submitHostedPage(started.next_action.url, '4242424242424242');
    expect((await t.http().get(new URL(back.location!).pathname)).status).toBe(200);
    const created = expectStatus(await t.http().post(`/v1/orders/${b.booking.id}/refunds`).set(sk(tenant, 'live')).set('Idempotency-Key', `r-${b.booking.id}`).send({ amount: 50_000 }), 201).data;
    await makeRefundsDue(t);
    await reconcileDuePayments(t.ctx);
    await until(() => [...stripe.state.refunds.values()].some((r) => r.metadata.refund === created.id && r.status === 'succeeded'));
    await makeRefundsDue(t);
    await reconcileDuePayments(t.ctx);
    expect(expectStatus(await t.http().get(`/v1/refunds/${created.id}`).set(sk(tenant, 'live')), 200).data.status).toBe('succeeded');
    expect(await liveOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'partially_refunded', amount_refunded: 50_000 });
  });
});
