import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileDuePayments } from '../../src/modules/payments/reconcile/reconcile-payments.job';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { DarajaFake } from '../kit/fakes/daraja-fake';
import { until } from '../kit/fakes/fake-provider';
import { PaystackFake } from '../kit/fakes/paystack-fake';
import { StripeFake } from '../kit/fakes/stripe-fake';
import { bookingBody, pk, seedEvent, sk } from '../ticketing/booking-fixtures';
import { sessionOf } from '../ticketing/payments-fixtures';
import { goLive, liveBooking, liveEvents, liveOrder, liveStream, makeChecksDue, mpesaConfig, payLive, paystackConfig, readSession, stripeConfig, submitHostedPage } from './live-checkout-fixtures';

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

/** The tickets of an order and the stream entitlements they hold. */
async function ticketsOf(orderId: string) {
  return t.ctx.db.selectFrom('tickets').select(['status', 'entitlement_id']).where('order_id', '=', orderId).execute();
}

describe('live booking with M-Pesa', () => {
  it('books, prompts the phone, and the reconciliation query pays the order once: tickets valid, the stream granted once', async () => {
    const tenant = await t.tenant();
    await goLive(t, tenant, [mpesaConfig]);
    const stream = await liveStream(t, tenant);
    const b = await liveBooking(t, tenant, { stream });
    expect(b.booking).toMatchObject({ status: 'pending', livemode: true });

    const before = await readSession(t, b.session);
    expect(before).toMatchObject({ livemode: true, status: 'open', methods: [{ method: 'mobile_money', provider: 'mpesa' }], latest_payment: null, redirect_to: null });

    expectError(await payLive(t, b.session, { method: 'mobile_money', phone: '+254711000000' }, null), 400, 'idempotency_key_required');
    expectError(await payLive(t, b.session, { method: 'card', card_number: '4242424242424242' }), 422, 'validation_failed', { param: 'card_number' });
    expectError(await payLive(t, b.session, { method: 'card' }), 422, 'payment_method_unavailable');
    expectError(await payLive(t, b.session, { method: 'mobile_money', phone: '+15551234567' }), 422, 'validation_failed', { param: 'phone' });

    const started = expectStatus(await payLive(t, b.session, { method: 'mobile_money', phone: '+254711000000' }, 'attempt-1'), 200).data;
    expect(started.payment).toMatchObject({ status: 'pending', provider: 'mpesa', method: 'mobile_money', amount: 150_000, currency: 'KES', payer_hint: '0000' });
    expect(started.payment.provider_reference).toMatch(/^ws_CO_/);
    expect(started.next_action).toMatchObject({ type: 'confirm_on_phone', phone_hint: '0000' });
    expect(started.redirect_to).toBeNull();
    const push = mpesa.stk.get(started.payment.provider_reference)!;
    expect(push).toMatchObject({ phone: '254711000000', amountKes: 1500, accountReference: b.booking.code });
    expect(push.callbackUrl).toMatch(new RegExp(`/api/v1/payments/mpesa/webhooks/${started.payment.provider_config}/[A-Za-z0-9]{32}$`));

    // A retry with the same key is the same attempt; another attempt while the prompt is fresh is refused.
    const again = expectStatus(await payLive(t, b.session, { method: 'mobile_money', phone: '+254711000000' }, 'attempt-1'), 200).data;
    expect(again.payment.id).toBe(started.payment.id);
    expect(mpesa.requestsTo('/mpesa/stkpush/v1/processrequest').filter((r) => (r.json as any).AccountReference === b.booking.code)).toHaveLength(1);
    expectError(await payLive(t, b.session, { method: 'mobile_money', phone: '+254711000000' }), 409, 'payment_in_progress');

    const polled = await readSession(t, b.session);
    expect(polled.latest_payment).toMatchObject({ id: started.payment.id, status: 'pending', next_action: { type: 'confirm_on_phone' } });

    // The payer approves; the order is paid only once the provider's query says so.
    await until(() => push.result !== null);
    expect((await liveOrder(t, tenant, b.booking.id)).status).toBe('pending');
    await makeChecksDue(t);
    await reconcileDuePayments(t.ctx);
    const order = await liveOrder(t, tenant, b.booking.id);
    expect(order).toMatchObject({ status: 'paid', amount_paid: 150_000 });
    const payment = expectStatus(await t.http().get(`/v1/payments/${started.payment.id}`).set(sk(tenant, 'live')), 200).data;
    expect(payment).toMatchObject({ status: 'succeeded', late: false, next_action: null });
    const tickets = await ticketsOf(b.booking.id);
    expect(tickets.map((x) => x.status)).toEqual(['valid']);

    // Reconciliation again, and a late query: nothing more is paid, granted or announced.
    const entitlements = expectStatus(await t.http().get('/v1/access/entitlements').query({ status: 'active' }).set(sk(tenant, 'live')), 200).data;
    expect(entitlements).toHaveLength(1);
    expect(entitlements[0]).toMatchObject({ source: 'ticket', source_ref: b.booking.code, resource: { type: 'ls', id: stream } });
    expect(tickets[0]!.entitlement_id).toBe(entitlements[0].id);
    await makeChecksDue(t);
    await reconcileDuePayments(t.ctx);
    expect(await ticketsOf(b.booking.id)).toEqual(tickets);
    expect(expectStatus(await t.http().get('/v1/access/entitlements').set(sk(tenant, 'live')), 200).data).toHaveLength(1);
    expect(await liveEvents(t, tenant, 'payments.payment.succeeded')).toHaveLength(1);
    expect(await liveEvents(t, tenant, 'events.order.paid')).toHaveLength(1);

    const done = await readSession(t, b.session);
    expect(done).toMatchObject({ status: 'complete', latest_payment: { status: 'succeeded', next_action: null } });
    const landing = new URL(done.redirect_to);
    expect(Object.fromEntries(landing.searchParams)).toEqual({ code: b.booking.code, outcome: 'succeeded', payment: started.payment.id });
    expectError(await payLive(t, b.session, { method: 'mobile_money', phone: '+254711000000' }), 409, 'checkout_session_complete');
  });

  it('a failed prompt leaves the order pending for another try, with the stable failure code', async () => {
    const tenant = await t.tenant();
    await goLive(t, tenant, [mpesaConfig]);
    const b = await liveBooking(t, tenant);
    const first = expectStatus(await payLive(t, b.session, { method: 'mobile_money', phone: '+254711000004' }), 200).data;
    await until(() => mpesa.stk.get(first.payment.provider_reference)?.result != null);
    await makeChecksDue(t);
    await reconcileDuePayments(t.ctx);
    expect((await readSession(t, b.session)).latest_payment).toMatchObject({ id: first.payment.id, status: 'failed', failure_code: 'cancelled_by_user' });
    // The failed attempt no longer blocks a new one.
    const second = expectStatus(await payLive(t, b.session, { method: 'mobile_money', phone: '+254711000000' }), 200).data;
    expect(second.payment.status).toBe('pending');
  });
});

describe('live booking with Paystack and Stripe', () => {
  it('Paystack: pay answers a redirect to the hosted page; back at the return page the verify pays the order', async () => {
    const tenant = await t.tenant();
    await goLive(t, tenant, [mpesaConfig, paystackConfig]);
    const b = await liveBooking(t, tenant);
    expect((await readSession(t, b.session)).methods).toEqual([
      { method: 'mobile_money', provider: 'mpesa' },
      { method: 'card', provider: 'paystack' },
    ]);
    const started = expectStatus(await payLive(t, b.session, { method: 'card' }), 200).data;
    expect(started.payment).toMatchObject({ status: 'pending', provider: 'paystack', provider_reference: started.payment.id.replace(/_/g, '-') });
    expect(started.next_action.type).toBe('redirect');
    const tx = paystack.transactions.get(started.payment.provider_reference)!;
    expect(tx).toMatchObject({ amount: 150_000, currency: 'KES', channels: ['card'], email: 'buyer@example.test' });
    expect(tx.callbackUrl).toBe(`${t.ctx.config.baseUrl}/checkout/${b.session}/return`);

    const back = await submitHostedPage(started.next_action.url, '4242424242424242');
    expect(back.status).toBe(302);
    const returned = new URL(back.location!);
    expect(returned.pathname).toBe(`/checkout/${b.session}/return`);
    const page = await t.http().get(`${returned.pathname}${returned.search}`);
    expect(page.status).toBe(200);
    expect(await liveOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'paid', amount_paid: 150_000 });
    const payment = expectStatus(await t.http().get(`/v1/payments/${started.payment.id}`).set(sk(tenant, 'live')), 200).data;
    expect(payment).toMatchObject({ status: 'succeeded', provider_receipt: String(tx.id) });
    expect(new URL((await readSession(t, b.session)).redirect_to).searchParams.get('outcome')).toBe('succeeded');
  });

  it('Stripe: a Checkout Session; the buyer pays on it and the return page retrieves it and pays the order', async () => {
    const tenant = await t.tenant();
    await goLive(t, tenant, [stripeConfig]);
    const b = await liveBooking(t, tenant);
    const started = expectStatus(await payLive(t, b.session, { method: 'card' }), 200).data;
    expect(started.payment).toMatchObject({ status: 'pending', provider: 'stripe' });
    expect(started.payment.provider_reference).toMatch(/^cs_/);
    expect(started.next_action).toMatchObject({ type: 'redirect' });
    const session = stripe.state.sessions.get(started.payment.provider_reference)!;
    expect(session).toMatchObject({ amount: 150_000, clientReferenceId: started.payment.id });

    // A declined card leaves the Stripe session open; the page returns nothing, the payment stays pending.
    expect((await submitHostedPage(started.next_action.url, '4000000000000002')).status).toBe(402);
    const back = await submitHostedPage(started.next_action.url, '4242424242424242');
    expect(back.status).toBe(303);
    const returned = new URL(back.location!);
    expect(returned.pathname).toBe(`/checkout/${b.session}/return`);
    expect((await t.http().get(returned.pathname)).status).toBe(200);
    expect(await liveOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'paid' });
    const payment = expectStatus(await t.http().get(`/v1/payments/${started.payment.id}`).set(sk(tenant, 'live')), 200).data;
    expect(payment.status).toBe('succeeded');
    expect(payment.provider_receipt).toMatch(/^pi_/);
  });
});

describe('live pay-later and configuration', () => {
  it('a live pay-later payment opens a checkout paid through the configuration; without one 409 payments_not_configured', async () => {
    const tenant = await t.tenant();
    await goLive(t, tenant, [mpesaConfig]);
    const { event, ticketType } = await seedEvent(t, tenant, { livemode: true, ticketTypes: [{ price: 200_000, allow_pay_later: true }] });
    const booked = expectStatus(await t.http().post(`/v1/events/${event.id}/book`).set(pk(tenant, 'live')).send({ ...bookingBody(ticketType.id, 1), pay_later: true }), 201).data;
    const later = expectStatus(await t.http().post(`/v1/events/booking/pay-later/fixed/${booked.booking.code}`).set(pk(tenant, 'live')).send({}), 200).data;
    expect(later).toMatchObject({ paid: false, amount_due: 200_000 });
    const session = sessionOf(later.payment);
    expect((await readSession(t, session)).methods).toEqual([{ method: 'mobile_money', provider: 'mpesa' }]);
    const started = expectStatus(await payLive(t, session, { method: 'mobile_money', phone: '+254711000000' }), 200).data;
    await until(() => mpesa.stk.get(started.payment.provider_reference)?.result != null);
    await makeChecksDue(t);
    await reconcileDuePayments(t.ctx);
    expect(await liveOrder(t, tenant, booked.booking.id)).toMatchObject({ status: 'paid', amount_paid: 200_000 });

    expectStatus(await t.http().patch('/v1/payments/settings').set(sk(tenant, 'live')).send({ provider_configs: [] }), 200);
    expectError(await t.http().post(`/v1/events/${event.id}/book`).set(pk(tenant, 'live')).send(bookingBody(ticketType.id, 1)), 409, 'payments_not_configured');
  });
});
