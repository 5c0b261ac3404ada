import type { TestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { bookingBody, bookOk, sk, type Tenant } from '../ticketing/booking-fixtures';
import { card, pay, sessionOf } from '../ticketing/payments-fixtures';

export { sk, type Tenant };

let n = 0;
export const uniqueEmail = () => `promoter${Date.now()}${n++}@example.test`;
export const uniquePhone = () => `+2547${String(Date.now() % 1e6).padStart(6, '0')}${String(n++ % 100).padStart(2, '0')}`;

export async function createPromoter(t: TestServer, tenant: Tenant, organization: string, body: Record<string, unknown> = {}) {
  const res = await t.http().post('/v1/promoters').set(sk(tenant)).send({ organization, name: 'Amina', email: uniqueEmail(), ...body });
  return expectStatus(res, 201).data as Record<string, any>;
}

export async function assign(t: TestServer, tenant: Tenant, promoter: string, body: Record<string, unknown>) {
  return expectStatus(await t.http().post(`/v1/promoters/${promoter}/assignments`).set(sk(tenant)).send(body), 201).data as Record<string, any>;
}

export async function trackingCode(t: TestServer, tenant: Tenant, promoter: string, code: string) {
  return expectStatus(await t.http().post(`/v1/promoters/${promoter}/tracking_codes`).set(sk(tenant)).send({ code }), 201).data as Record<string, any>;
}

/** Books `quantity` tickets with `extra` (a `ref`, a `referral`, a coupon) and pays by card in the simulator. */
export async function paidOrder(t: TestServer, tenant: Tenant, event: string, ticketType: string, quantity: number, extra: Record<string, unknown> = {}, headers?: Record<string, string>) {
  const body = bookingBody(ticketType, quantity, extra);
  const { booking, payment } = headers
    ? (expectStatus(await t.http().post(`/v1/events/${event}/book`).set(headers).send(body), 201).data as { booking: Record<string, any>; payment: string | [] })
    : await bookOk(t, tenant, event, body);
  if (typeof payment === 'string') expectStatus(await pay(t, sessionOf(payment), card('4242424242424242')), 200);
  return booking;
}

let keys = 0;
export const refund = (t: TestServer, tenant: Tenant, order: string, body: object = {}) =>
  t.http().post(`/v1/orders/${order}/refunds`).set(sk(tenant)).set('Idempotency-Key', `refund-${keys++}`).send(body);

export const payout = (t: TestServer, tenant: Tenant, promoter: string, body: object, key: string | null = `payout-${keys++}`, mode: 'test' | 'live' = 'test') => {
  const req = t.http().post(`/v1/promoters/${promoter}/payouts`).set(sk(tenant, mode));
  return (key === null ? req : req.set('Idempotency-Key', key)).send(body);
};

export async function commissionsOf(t: TestServer, tenant: Tenant, query: Record<string, string>) {
  return expectStatus(await t.http().get('/v1/commissions').query({ limit: 100, ...query }).set(sk(tenant)), 200).data as Record<string, any>[];
}
