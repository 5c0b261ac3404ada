import type { TestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { bookingBody, bookOk, seedEvent, sk, type EventSeed, type Tenant } from './booking-fixtures';

/** The checkout session id in a booking's `payment` URL. */
export const sessionOf = (payment: string | []) => {
  if (typeof payment !== 'string') throw new Error('the booking has nothing to pay');
  return payment.slice(payment.lastIndexOf('/') + 1);
};

export const pay = (t: TestServer, session: string, body: { method: 'card'; card_number: string } | { method: 'mobile_money'; phone: string }) =>
  t.http().post(`/v1/checkout/sessions/${session}/pay`).send(body);

export const card = (card_number: string) => ({ method: 'card' as const, card_number });
export const phone = (p: string) => ({ method: 'mobile_money' as const, phone: p });

/** A published test-mode event with one priced ticket type, and a booking of `quantity` of it waiting for payment. */
export async function pendingBooking(t: TestServer, tenant: Tenant, seed: EventSeed = {}, quantity = 1, extra: Record<string, unknown> = {}) {
  const seeded = await seedEvent(t, tenant, { ticketTypes: [{ price: 1500 }], ...seed });
  const { booking, payment } = await bookOk(t, tenant, seeded.event.id, bookingBody(seeded.ticketType.id, quantity, extra));
  return { ...seeded, booking, payment, session: typeof payment === 'string' ? sessionOf(payment) : '' };
}

/** A booking paid by card in the simulator. */
export async function paidBooking(t: TestServer, tenant: Tenant, seed: EventSeed = {}, quantity = 1, cardNumber = '4242424242424242') {
  const b = await pendingBooking(t, tenant, seed, quantity);
  expectStatus(await pay(t, b.session, card(cardNumber)), 200);
  return b;
}

export const getOrder = async (t: TestServer, tenant: Tenant, id: string) => expectStatus(await t.http().get(`/v1/orders/${id}`).set(sk(tenant)), 200).data;

/** The event log's events of `type`, newest first. */
export const eventsOf = async (t: TestServer, tenant: Tenant, type: string) =>
  expectStatus(await t.http().get('/v1/events').query({ type, limit: 100 }).set(sk(tenant)), 200).data as { data: { object: any }; request: { id: string; idempotency_key: string | null } | null }[];
