import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { bookingBody, bookOk, bucketsOf, seedEvent, sk } from './booking-fixtures';
import { card, eventsOf, getOrder, pay, pendingBooking, phone, sessionOf } from './payments-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

describe('the checkout page', () => {
  it('is HTML marked TEST MODE that runs only its own script, cannot be framed and sends no Referer', async () => {
    const tenant = await t.tenant();
    const { session } = await pendingBooking(t, tenant);
    const res = await t.http().get(`/checkout/${session}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('TEST MODE');
    expect(res.text).toContain(`data-session="${session}"`);
    expect(res.text).not.toMatch(/<script>[^<]/);
    const csp = res.headers['content-security-policy'];
    for (const part of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "form-action 'none'"]) expect(csp).toContain(part);
    expect(res.headers).toMatchObject({ 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    const script = await t.http().get('/checkout/assets/checkout.js');
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.text).toContain('/v1/checkout/sessions/');
    expect(script.text).not.toContain('innerHTML');
  });
});

describe('the checkout session', () => {
  it('shows the amount and the order summary, without the buyer, to anyone holding its id', async () => {
    const tenant = await t.tenant();
    const { booking, session } = await pendingBooking(t, tenant, {}, 2);
    const data = expectStatus(await t.http().get(`/v1/checkout/sessions/${session}`), 200).data;
    expect(data).toMatchObject({
      id: session,
      object: 'checkout_session',
      livemode: false,
      status: 'open',
      amount: 3000,
      currency: 'KES',
      order: { id: booking.id, code: booking.code, status: 'pending', quantity: 2, amount_total: 3000, amount_due: 3000, event: { name: 'The Show' } },
    });
    expect(JSON.stringify(data)).not.toContain('buyer@example.test');
  });

  it('answers 404 for an unknown or malformed id; offers the simulator\'s methods with no payment yet', async () => {
    const tenant = await t.tenant();
    const { session } = await pendingBooking(t, tenant);
    expect(expectStatus(await t.http().get(`/v1/checkout/sessions/${session}`), 200).data).toMatchObject({
      methods: [
        { method: 'mobile_money', provider: 'simulated' },
        { method: 'card', provider: 'simulated' },
      ],
      latest_payment: null,
      redirect_to: null,
    });
    expectError(await t.http().get('/v1/checkout/sessions/cs_nope'), 404, 'resource_not_found');
    expectError(await pay(t, `cs_${'x'.repeat(32)}`, card('4242424242424242')), 404, 'resource_not_found');
    expect((await t.http().get(`/checkout/cs_${'x'.repeat(32)}`)).status).toBe(404);
    expect((await t.http().get(`/checkout/cs_${'x'.repeat(32)}/return`)).status).toBe(404);
  });

  it('the simulator needs the payer: a card payment without its number is 422', async () => {
    const tenant = await t.tenant();
    const { session } = await pendingBooking(t, tenant);
    expectError(await t.http().post(`/v1/checkout/sessions/${session}/pay`).send({ method: 'card' }), 422, 'validation_failed', { param: 'card_number' });
    expectError(await t.http().post(`/v1/checkout/sessions/${session}/pay`).send({ method: 'mobile_money' }), 422, 'validation_failed', { param: 'phone' });
  });

  it('refuses a malformed payment body with 422', async () => {
    const tenant = await t.tenant();
    const { session } = await pendingBooking(t, tenant);
    expectError(await t.http().post(`/v1/checkout/sessions/${session}/pay`).send({ method: 'card', card_number: 'abc' }), 422, 'validation_failed');
    expectError(await t.http().post(`/v1/checkout/sessions/${session}/pay`).send({ method: 'cash' }), 422, 'validation_failed');
  });
});

describe('the magic values', () => {
  const succeed = [card('4242424242424242'), phone('+254711000000'), card('5555555555554444'), phone('+254722123456')];
  for (const body of succeed) {
    it(`${'card_number' in body ? body.card_number : body.phone} pays the order`, async () => {
      const tenant = await t.tenant();
      const { booking, session, event } = await pendingBooking(t, tenant, { capacity: 10 });
      const data = expectStatus(await pay(t, session, body), 200).data;
      const digits = 'card_number' in body ? body.card_number : body.phone.replace('+', '');
      expect(data.payment).toMatchObject({ status: 'succeeded', failure_code: null, amount: 1500, order: booking.id, payer_hint: digits.slice(-4) });
      expect(data.payment.id).toMatch(/^pay_/);
      const order = await getOrder(t, tenant, booking.id);
      expect(order).toMatchObject({ status: 'paid', amount_paid: 1500, amount_due: 0 });
      expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 0, sold: 1 } });
      const stored = await t.ctx.db.selectFrom('payments').selectAll().where('id', '=', data.payment.id).executeTakeFirstOrThrow();
      expect(JSON.stringify(stored)).not.toContain(digits);
    });
  }

  const fail = [
    [card('4000000000009995'), 'insufficient_funds'],
    [phone('+254711000001'), 'insufficient_funds'],
    [card('4000000000000002'), 'declined'],
    [phone('+254711000002'), 'declined'],
  ] as const;
  for (const [body, code] of fail) {
    it(`${'card_number' in body ? body.card_number : body.phone} fails with ${code}; the order stays pending and a retry pays it`, async () => {
      const tenant = await t.tenant();
      const { booking, session } = await pendingBooking(t, tenant);
      const answer = await pay(t, session, body);
      const failed = expectStatus(answer, 200).data;
      expect(failed).toMatchObject({ payment: { status: 'failed', failure_code: code }, redirect_to: null });
      expect(await getOrder(t, tenant, booking.id)).toMatchObject({ status: 'pending', amount_paid: 0 });
      const events = await eventsOf(t, tenant, 'payments.payment.failed');
      expect(events[0]!.data.object).toMatchObject({ id: failed.payment.id, object: 'payment', status: 'failed', failure_code: code });
      // The pay page's request caused the event, though it carried no tenant credential.
      expect(events[0]!.request).toEqual({ id: answer.headers['request-id'], idempotency_key: null });

      const retry = await pay(t, session, card('4242424242424242'));
      expectStatus(retry, 200);
      expect(await getOrder(t, tenant, booking.id)).toMatchObject({ status: 'paid' });
      const paid = (await eventsOf(t, tenant, 'events.order.paid')).find((e) => e.data.object.id === booking.id);
      expect(paid!.request).toEqual({ id: retry.headers['request-id'], idempotency_key: null });
    });
  }

  it('+254711000003 never answers: the payment stays pending and the order expires', async () => {
    const tenant = await t.tenant();
    const { booking, session, event } = await pendingBooking(t, tenant, { capacity: 3 });
    const data = expectStatus(await pay(t, session, phone('+254711000003')), 200).data;
    expect(data.payment).toMatchObject({ status: 'pending', failure_code: null, settled_at: null });
    expect(await getOrder(t, tenant, booking.id)).toMatchObject({ status: 'pending' });
    expectStatus(await t.http().post(`/v1/test_helpers/orders/${booking.id}/expire`).set(sk(tenant)), 200);
    expect(await getOrder(t, tenant, booking.id)).toMatchObject({ status: 'expired' });
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 0, sold: 0 } });
    const stored = await t.ctx.db.selectFrom('payments').select('status').where('id', '=', data.payment.id).executeTakeFirstOrThrow();
    expect(stored.status).toBe('pending');
  });
});

describe('confirmation', () => {
  it('runs exactly once when two payments race: one wins, the other answers 409 and charges nothing', async () => {
    const tenant = await t.tenant();
    const { booking, session, event } = await pendingBooking(t, tenant, { capacity: 5 }, 2);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => pay(t, session, i % 2 ? phone('+254711000000') : card('4242424242424242'))));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of answers.filter((a) => a.status !== 200)) expectError(r, 409, 'checkout_session_complete');
    expect(await getOrder(t, tenant, booking.id)).toMatchObject({ status: 'paid', amount_paid: 3000 });
    const payments = await t.ctx.db.selectFrom('payments').selectAll().where('order_id', '=', booking.id).execute();
    expect(payments.map((p) => p.status)).toEqual(['succeeded']);
    expect((await eventsOf(t, tenant, 'events.order.paid')).filter((e) => e.data.object.id === booking.id)).toHaveLength(1);
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 0, sold: 2 } });
  });

  it('a paid session answers 409 checkout_session_complete; a cancelled order answers 409 order_not_payable', async () => {
    const tenant = await t.tenant();
    const { session } = await pendingBooking(t, tenant);
    expectStatus(await pay(t, session, card('4242424242424242')), 200);
    expectError(await pay(t, session, card('4242424242424242')), 409, 'checkout_session_complete');
    expectError(await pay(t, session, card('4000000000000002')), 409, 'checkout_session_complete');

    const other = await pendingBooking(t, tenant);
    expectStatus(await t.http().post(`/v1/orders/${other.booking.id}/cancel`).set(sk(tenant)), 200);
    expectError(await pay(t, other.session, card('4242424242424242')), 409, 'order_not_payable');
  });
});

describe('a payment after expiry', () => {
  it('takes the seats again when they are free: the order is paid', async () => {
    const tenant = await t.tenant();
    const { booking, session, event } = await pendingBooking(t, tenant, { capacity: 2 });
    expectStatus(await t.http().post(`/v1/test_helpers/orders/${booking.id}/expire`).set(sk(tenant)), 200);
    const data = expectStatus(await pay(t, session, card('4242424242424242')), 200).data;
    expect(data.payment.status).toBe('succeeded');
    expect(await getOrder(t, tenant, booking.id)).toMatchObject({ status: 'paid', amount_paid: 1500, amount_refunded: 0 });
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 0, sold: 1 } });
  });

  it('is refunded automatically when the seats went to someone else', async () => {
    const tenant = await t.tenant();
    const seeded = await seedEvent(t, tenant, { capacity: 1, ticketTypes: [{ price: 1500 }] });
    const first = await bookOk(t, tenant, seeded.event.id, { ...bookingBody(seeded.ticketType.id, 1), redirect_url: 'https://shop.example.test/done' });
    expectStatus(await t.http().post(`/v1/test_helpers/orders/${first.booking.id}/expire`).set(sk(tenant)), 200);
    const second = await bookOk(t, tenant, seeded.event.id, bookingBody(seeded.ticketType.id, 1));
    expectStatus(await pay(t, sessionOf(second.payment), card('4242424242424242')), 200);

    const late = expectStatus(await pay(t, sessionOf(first.payment), card('4242424242424242')), 200).data;
    expect(late.payment.status).toBe('succeeded');
    expect(new URL(late.redirect_to).searchParams.get('outcome')).toBe('refunded');
    expect(await getOrder(t, tenant, first.booking.id)).toMatchObject({ status: 'expired', amount_paid: 1500, amount_refunded: 1500 });
    const refunds = expectStatus(await t.http().get(`/v1/orders/${first.booking.id}/refunds`).set(sk(tenant)), 200).data;
    expect(refunds).toMatchObject([{ object: 'refund', amount: 1500, status: 'succeeded', reason: 'seats_unavailable' }]);
    expect(await bucketsOf(t, seeded.event.id)).toMatchObject({ [`e:${seeded.event.id}`]: { held: 0, sold: 1 } });
  });
});

describe('the redirect', () => {
  it('carries the order code, the outcome and the payment', async () => {
    const tenant = await t.tenant();
    const { booking, session } = await pendingBooking(t, tenant, {}, 1, { redirect_url: 'https://shop.example.test/thanks?ref=42' });
    const data = expectStatus(await pay(t, session, card('4242424242424242')), 200).data;
    const url = new URL(data.redirect_to);
    expect(url.origin + url.pathname).toBe('https://shop.example.test/thanks');
    expect(Object.fromEntries(url.searchParams)).toEqual({ ref: '42', code: booking.code, outcome: 'succeeded', payment: data.payment.id });

    const pending = await pendingBooking(t, tenant, {}, 1, { redirect_url: 'https://shop.example.test/thanks' });
    const waiting = expectStatus(await pay(t, pending.session, phone('+254711000003')), 200).data;
    expect(new URL(waiting.redirect_to).searchParams.get('outcome')).toBe('pending');
  });
});
