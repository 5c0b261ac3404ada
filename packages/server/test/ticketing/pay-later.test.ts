import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { bookingBody, bookOk, pk, seedEvent, sk, type Tenant } from './booking-fixtures';
import { card, eventsOf, getOrder, pay, pendingBooking, sessionOf } from './payments-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

async function payLaterBooking(tenant: Tenant, quantity = 2) {
  const { event, ticketType } = await seedEvent(t, tenant, { capacity: 10, ticketTypes: [{ price: 5000, allow_pay_later: true, flexipay_min_price: 2000 }] });
  const { booking, payment } = await bookOk(t, tenant, event.id, { ...bookingBody(ticketType.id, quantity), pay_later: true });
  expect(payment).toEqual([]);
  expect(booking).toMatchObject({ status: 'pending', pay_later: true, amount_total: quantity * 5000 });
  return booking;
}

const fixed = (tenant: Tenant, code: string) => t.http().post(`/v1/events/booking/pay-later/fixed/${code}`).set(pk(tenant)).send({});
const open = (tenant: Tenant, code: string, body: object = {}) => t.http().post(`/v1/events/booking/pay-later/open/${code}`).set(pk(tenant)).send(body);

describe('pay-later', () => {
  it('fixed: one checkout for the whole balance pays the order', async () => {
    const tenant = await t.tenant();
    const booking = await payLaterBooking(tenant);
    const data = expectStatus(await fixed(tenant, booking.code), 200).data;
    expect(data).toMatchObject({ status: 'pending', paid: false, amount_due: 10000 });
    expect(data.payment).toMatch(/\/checkout\/cs_/);
    const session = expectStatus(await t.http().get(`/v1/checkout/sessions/${sessionOf(data.payment)}`), 200).data;
    expect(session).toMatchObject({ amount: 10000, order: { code: booking.code } });
    expectStatus(await pay(t, sessionOf(data.payment), card('4242424242424242')), 200);
    expect(await getOrder(t, tenant, booking.id)).toMatchObject({ status: 'paid', amount_paid: 10000, amount_due: 0 });
    expect(expectStatus(await fixed(tenant, booking.code), 200).data).toEqual({ status: 'paid', paid: true, amount_due: 0, payment: [] });
  });

  it('open: instalments of at least the flexipay minimum, paid once amount_paid reaches amount_total', async () => {
    const tenant = await t.tenant();
    const booking = await payLaterBooking(tenant);
    expectError(await open(tenant, booking.code, { amount: 1999 }), 422, 'validation_failed', { param: 'amount' });
    expectError(await open(tenant, booking.code, { amount: 10001 }), 422, 'validation_failed', { param: 'amount' });

    const first = expectStatus(await open(tenant, booking.code, { amount: 4000 }), 200).data;
    expectStatus(await pay(t, sessionOf(first.payment), card('4242424242424242')), 200);
    expect(await getOrder(t, tenant, booking.id)).toMatchObject({ status: 'pending', amount_paid: 4000, amount_due: 6000 });

    const second = expectStatus(await open(tenant, booking.code, { amount: 5000 }), 200).data;
    expect(second).toMatchObject({ status: 'pending', paid: false, amount_due: 6000 });
    // A newer checkout replaces an older unpaid one of the same order.
    const third = expectStatus(await open(tenant, booking.code, { amount: 6000 }), 200).data;
    expectError(await pay(t, sessionOf(second.payment), card('4242424242424242')), 409, 'checkout_session_expired');
    expectStatus(await pay(t, sessionOf(third.payment), card('4242424242424242')), 200);
    expect(await getOrder(t, tenant, booking.id)).toMatchObject({ status: 'paid', amount_paid: 10000, amount_due: 0 });
    expect((await eventsOf(t, tenant, 'events.order.paid')).filter((e) => e.data.object.id === booking.id)).toHaveLength(1);
  });

  it('open: the last instalment may be below the minimum when less is left', async () => {
    const tenant = await t.tenant();
    const booking = await payLaterBooking(tenant, 1);
    const first = expectStatus(await open(tenant, booking.code, { amount: 4000 }), 200).data;
    expectStatus(await pay(t, sessionOf(first.payment), card('4242424242424242')), 200);
    const last = expectStatus(await open(tenant, booking.code, { amount: 1000 }), 200).data;
    expectStatus(await pay(t, sessionOf(last.payment), card('4242424242424242')), 200);
    expect(await getOrder(t, tenant, booking.id)).toMatchObject({ status: 'paid', amount_paid: 5000 });
  });

  it("takes a server's secret key as well as a browser's publishable key; live mode without a payment configuration is 409 payments_not_configured", async () => {
    const tenant = await t.tenant();
    const booking = await payLaterBooking(tenant);
    const bySecret = await t.http().post(`/v1/events/booking/pay-later/fixed/${booking.code}`).set(sk(tenant)).send({});
    expect(expectStatus(bySecret, 200).data).toMatchObject({ paid: false, amount_due: 10000 });
    const { event, ticketType } = await seedEvent(t, tenant, { livemode: true, ticketTypes: [{ price: 5000, allow_pay_later: true }] });
    const live = await t.http().post(`/v1/events/${event.id}/book`).set(pk(tenant, 'live')).send({ ...bookingBody(ticketType.id, 1), pay_later: true });
    const code = expectStatus(live, 201).data.booking.code;
    expectError(await t.http().post(`/v1/events/booking/pay-later/fixed/${code}`).set(pk(tenant, 'live')).send({}), 409, 'payments_not_configured');
  });

  it('answers 409 for an order not booked to pay later, 404 for an unknown code or another tenant', async () => {
    const tenant = await t.tenant();
    const { booking } = await pendingBooking(t, tenant);
    expectError(await fixed(tenant, booking.code), 409, 'pay_later_not_allowed');
    expectError(await fixed(tenant, 'ZZZZZZZZ'), 404, 'resource_not_found');
    const later = await payLaterBooking(tenant);
    const other = await t.tenant('Other');
    expectError(await open(other, later.code), 404, 'resource_not_found');
  });
});
