import { randomUUID } from 'node:crypto';
import type { TestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import * as daraja from '../kit/fakes/daraja-fake';
import { PAYSTACK_LIVE_SECRET_KEY, type PaystackFake } from '../kit/fakes/paystack-fake';
import { STRIPE_LIVE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, type StripeFake } from '../kit/fakes/stripe-fake';
import { bookingBody, pk, seedEvent, sk, type Tenant } from '../ticketing/booking-fixtures';
import { sessionOf } from '../ticketing/payments-fixtures';

export const mpesaConfig = {
  type: 'mpesa',
  name: 'Paybill',
  shortcode: daraja.DARAJA_SHORTCODE,
  shortcode_type: 'paybill',
  consumer_key: daraja.DARAJA_CONSUMER_KEY,
  consumer_secret: daraja.DARAJA_CONSUMER_SECRET,
  passkey: daraja.DARAJA_PASSKEY,
  initiator_name: daraja.DARAJA_INITIATOR,
  initiator_password: daraja.DARAJA_INITIATOR_PASSWORD,
};
export const paystackConfig = { type: 'paystack', name: 'Cards', secret_key: PAYSTACK_LIVE_SECRET_KEY };
export const stripeConfig = { type: 'stripe', name: 'Stripe', secret_key: STRIPE_LIVE_SECRET_KEY, webhook_secret: STRIPE_WEBHOOK_SECRET };

/** Live-mode configurations, created (verified against the fakes) and listed in the tenant's live settings, in order. */
export async function goLive(t: TestServer, tenant: Tenant, configs: object[], latePaymentPolicy?: 'refund' | 'accept_if_available') {
  const ids: string[] = [];
  for (const body of configs) ids.push(expectStatus(await t.http().post('/v1/payments/provider_configs').set(sk(tenant, 'live')).send(body), 201).data.id);
  const settings = { provider_configs: ids, ...(latePaymentPolicy && { late_payment_policy: latePaymentPolicy }) };
  expectStatus(await t.http().patch('/v1/payments/settings').set(sk(tenant, 'live')).send(settings), 200);
  return ids;
}

/** A live stream of the tenant's live mode, for an event that streams. */
export async function liveStream(t: TestServer, tenant: Tenant): Promise<string> {
  expectStatus(await t.http().patch(`/v1/operator/tenants/${tenant.tenant.id}`).set(t.operator).send({ video: { live_network: 'simulated' } }), 200);
  return expectStatus(await t.http().post('/v1/streams/live_streams').set(sk(tenant, 'live')).send({}), 201).data.id;
}

/** A published live-mode event with a priced ticket, booked in live mode: the order and its checkout session. */
export async function liveBooking(t: TestServer, tenant: Tenant, opts: { price?: number; quantity?: number; stream?: string | null; redirect?: string } = {}) {
  const seeded = await seedEvent(t, tenant, { livemode: true, capacity: opts.quantity ?? 5, live_stream: opts.stream ?? null, ticketTypes: [{ price: opts.price ?? 150_000 }] });
  const res = await t.http().post(`/v1/events/${seeded.event.id}/book`).set(pk(tenant, 'live')).send(bookingBody(seeded.ticketType.id, 1, { redirect_url: opts.redirect ?? 'https://shop.example.test/thanks' }));
  const { booking, payment } = expectStatus(res, 201).data;
  return { ...seeded, booking, session: sessionOf(payment) };
}

export const payLive = (t: TestServer, session: string, body: object, key: string | null = randomUUID()) => {
  const req = t.http().post(`/v1/checkout/sessions/${session}/pay`);
  return (key === null ? req : req.set('Idempotency-Key', key)).send(body);
};

export const readSession = async (t: TestServer, session: string) => expectStatus(await t.http().get(`/v1/checkout/sessions/${session}`), 200).data;

/** Makes every pending check due now, as time passing would. */
export const makeChecksDue = (t: TestServer) => t.ctx.db.updateTable('payments').set({ next_check_at: new Date(Date.now() - 1000) }).where('status', '=', 'pending').execute();
export const makeRefundsDue = (t: TestServer) => t.ctx.db.updateTable('refunds').set({ next_check_at: new Date(Date.now() - 1000) }).where('status', '=', 'pending').execute();

export const liveOrder = async (t: TestServer, tenant: Tenant, id: string) => expectStatus(await t.http().get(`/v1/orders/${id}`).set(sk(tenant, 'live')), 200).data;

export const liveEvents = async (t: TestServer, tenant: Tenant, type: string) =>
  expectStatus(await t.http().get('/v1/events').query({ type, limit: 100 }).set(sk(tenant, 'live')), 200).data as { data: { object: any } }[];

/** A hosted page's form, submitted as a buyer's browser would (the fakes answer with a redirect back). */
export async function submitHostedPage(url: string, payer: string, action: 'pay' | 'cancel' = 'pay'): Promise<{ status: number; location: string | null }> {
  const res = await fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ payer, action }).toString() });
  return { status: res.status, location: res.headers.get('location') };
}

export type Fakes = { mpesa: daraja.DarajaFake; paystack: PaystackFake; stripe: StripeFake };
