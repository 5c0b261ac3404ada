import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { callbackAddress, recordPayment } from '../../src/modules/payments';
import { providerOfConfig } from '../../src/modules/payments/providers/provider-for';
import { newId } from '../../src/core/ids';
import { useTestServer, type TestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import * as daraja from '../kit/fakes/daraja-fake';
import { sk, type Tenant } from '../ticketing/booking-fixtures';
import { pendingBooking } from '../ticketing/payments-fixtures';

/**
 * A test server whose M-Pesa calls go to a local Daraja (`MPESA_API_URL`), listening for that fake's callbacks;
 * public limits raised, since a provider posts faster than any one client.
 */
export function useMpesaServer(): { t: TestServer; mpesaFake: daraja.DarajaFake } {
  const mpesaFake = new daraja.DarajaFake();
  const env: Record<string, string> = { SVC_RATE_LIMIT_PUBLIC: '10000' };
  beforeAll(async () => {
    env.MPESA_API_URL = await mpesaFake.start();
  });
  afterAll(() => mpesaFake.stop());
  const t = useTestServer(env);
  listenForCallbacks(t);
  return { t, mpesaFake };
}

/**
 * The app listening on a port of its own, with its public base URL pointed there: the fakes post their
 * callbacks and webhooks to the addresses the service gave them, as the real providers would.
 */
export function listenForCallbacks(t: TestServer): void {
  let server: Server | undefined;
  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const s = t.app.listen(0, '127.0.0.1', () => resolve(s));
    });
    t.ctx.config.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });
}

export const testScope = (tenant: Tenant) => ({ tenantId: tenant.tenant.id, livemode: false });

/** A test-mode M-Pesa configuration against the Daraja fake (a sandbox account, as a tenant would test with). */
export async function mpesaConfig(t: TestServer, tenant: Tenant, over: Record<string, unknown> = {}) {
  const body = {
    type: 'mpesa',
    name: 'Paybill',
    shortcode: daraja.DARAJA_SHORTCODE,
    shortcode_type: 'paybill',
    consumer_key: daraja.DARAJA_CONSUMER_KEY,
    consumer_secret: daraja.DARAJA_CONSUMER_SECRET,
    passkey: daraja.DARAJA_PASSKEY,
    ...over,
  };
  return expectStatus(await t.http().post('/v1/payments/provider_configs').set(sk(tenant)).send(body), 201).data as { id: string; webhook_url: string };
}

/** A configuration of a signed provider (Paystack or Stripe). */
export async function signedConfig(t: TestServer, tenant: Tenant, body: Record<string, unknown>) {
  return expectStatus(await t.http().post('/v1/payments/provider_configs').set(sk(tenant)).send({ name: 'Cards', ...body }), 201).data as { id: string; webhook_url: string };
}

/** A booking waiting for its payment (`pendingBooking`'s, or another booking of the same event). */
export type Booked = Awaited<ReturnType<typeof pendingBooking>>;

/**
 * A booking waiting for a payment at a provider: the attempt started through the configuration's adapter,
 * with the address `callbackAddress` gives it, and the payment recorded `pending` as a live start records it.
 */
export async function pendingProviderPayment(t: TestServer, tenant: Tenant, configId: string, payer: { phone: string } | { card: true }, booked?: Booked) {
  const b = booked ?? (await pendingBooking(t, tenant));
  const scope = testScope(tenant);
  const config = await t.ctx.db.selectFrom('payment_provider_configs').selectAll().where('id', '=', configId).executeTakeFirstOrThrow();
  const order = await t.ctx.db.selectFrom('orders').selectAll().where('id', '=', b.booking.id).executeTakeFirstOrThrow();
  const id = newId('payment');
  const method = 'phone' in payer ? ('mobile_money' as const) : ('card' as const);
  const phone = 'phone' in payer ? payer.phone : null;
  const callbackUrl = await callbackAddress(t.ctx, t.ctx.db, scope, { configId, providerType: config.type, operation: { payment: id } });
  const started = await providerOfConfig(t.ctx, config).startPayment({
    paymentId: id,
    orderCode: order.code,
    amount: order.amount_total,
    currency: order.currency,
    method,
    phone,
    cardNumber: null,
    email: null,
    description: 'Tickets',
    callbackUrl,
    returnUrl: `${t.ctx.config.baseUrl}/checkout/${b.session}/return`,
    expiresAt: new Date(Date.now() + 900_000),
  });
  const payment = await recordPayment(t.ctx.db, scope, {
    id,
    orderId: order.id,
    checkoutSessionId: b.session,
    organizationId: order.organization_id,
    customerId: order.customer_id,
    method,
    amount: order.amount_total,
    currency: order.currency,
    status: 'pending',
    failureCode: null,
    payerHint: phone ? phone.slice(-4) : null,
    provider: config.type,
    providerConfigId: configId,
    providerReference: started.providerReference,
    nextCheckAt: new Date(Date.now() + 3_600_000),
  });
  return { ...b, payment, callbackUrl, reference: started.providerReference!, nextAction: started.nextAction };
}

/** A booking waiting for an M-Pesa payment: the STK push went to the Daraja fake with the payment's own address. */
export async function pendingMpesaPayment(t: TestServer, tenant: Tenant, configId: string, phone = '+254711000000', booked?: Booked) {
  const p = await pendingProviderPayment(t, tenant, configId, { phone }, booked);
  return { ...p, checkoutRequestId: p.reference };
}
