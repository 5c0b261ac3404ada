import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reconcileDuePayments } from '../../src/modules/payments/reconcile/reconcile-payments.job';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { until } from '../kit/fakes/fake-provider';
import { PAYSTACK_SECRET_KEY, PaystackFake } from '../kit/fakes/paystack-fake';
import { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, StripeFake, stripeSignatureHeader } from '../kit/fakes/stripe-fake';
import { sk } from '../ticketing/booking-fixtures';
import { eventsOf, getOrder } from '../ticketing/payments-fixtures';
import { listenForCallbacks, mpesaConfig, pendingProviderPayment, signedConfig } from './inbound-fixtures';
import { applyInbox, inboxOf, paymentRow } from './inbound-kit';
import * as daraja from '../kit/fakes/daraja-fake';

const paystack = new PaystackFake();
const stripe = new StripeFake();
const mpesaFake = new daraja.DarajaFake();
const env: Record<string, string> = { SVC_RATE_LIMIT_PUBLIC: '10000' };
beforeAll(async () => {
  env.PAYSTACK_API_URL = await paystack.start();
  env.STRIPE_API_URL = await stripe.start();
  env.MPESA_API_URL = await mpesaFake.start();
});
afterAll(() => Promise.all([paystack.stop(), stripe.stop(), mpesaFake.stop()]));
const t = useTestServer(env);
listenForCallbacks(t);

const postRaw = (path: string, body: string, headers: Record<string, string>) => t.http().post(path).set({ 'content-type': 'application/json', ...headers }).send(body);
const paystackSign = (body: string, key = PAYSTACK_SECRET_KEY) => createHmac('sha512', key).update(body).digest('hex');

describe('POST /api/v1/payments/paystack/webhooks/{ppc}', () => {
  it('records a signed charge.success; the job verifies it with Paystack and pays the order', async () => {
    const tenant = await t.tenant();
    const config = await signedConfig(t, tenant, { type: 'paystack', secret_key: PAYSTACK_SECRET_KEY });
    paystack.webhookUrl = config.webhook_url;
    const p = await pendingProviderPayment(t, tenant, config.id, { card: true });
    paystack.complete(p.reference, '4242424242424242');
    await until(() => paystack.deliveries.some((d) => d.url === config.webhook_url && d.status !== null));
    const delivery = paystack.deliveries.find((d) => d.url === config.webhook_url)!;
    expect([delivery.status, JSON.parse(delivery.answer)]).toEqual([200, { received: true }]);
    expect(await applyInbox(t, config.id)).toEqual(['succeeded']);
    expect(await paymentRow(t, p.payment.id)).toMatchObject({ status: 'succeeded' });
    expect(await getOrder(t, tenant, p.booking.id)).toMatchObject({ status: 'paid', amount_paid: 1500 });
    expect(paystack.requests.some((r) => r.path === `/transaction/verify/${p.reference}`)).toBe(true);
    // Paystack retries a delivery it thinks failed: the same event again is recorded once.
    expect((await paystack.resend(delivery)).status).toBe(200);
    expect(await inboxOf(t, config.id)).toHaveLength(1);
    expect(await eventsOf(t, tenant, 'payments.payment.succeeded')).toHaveLength(1);
  });

  it('refuses a forged or missing signature with 401 provider_webhook_refused and records nothing', async () => {
    const tenant = await t.tenant();
    const config = await signedConfig(t, tenant, { type: 'paystack', secret_key: PAYSTACK_SECRET_KEY });
    const p = await pendingProviderPayment(t, tenant, config.id, { card: true });
    const body = JSON.stringify({ event: 'charge.success', data: { id: 1, reference: p.reference, amount: 1500, currency: 'KES', status: 'success' } });
    const path = new URL(config.webhook_url).pathname;
    const warn = vi.spyOn(t.ctx.log, 'warn');
    expectError(await postRaw(path, body, { 'x-paystack-signature': paystackSign(body, 'sk_test_not_the_key') }), 401, 'provider_webhook_refused');
    expectError(await postRaw(path, body, {}), 401, 'provider_webhook_refused');
    // A genuine signature over other bytes is no signature of these.
    expectError(await postRaw(path, body.replace('1500', '150'), { 'x-paystack-signature': paystackSign(body) }), 401, 'provider_webhook_refused');
    expect(await inboxOf(t, config.id)).toEqual([]);
    const refused = warn.mock.calls.filter((c) => c[1] === 'payments: inbound provider notification refused').map((c) => (c[0] as { reason: string }).reason);
    expect(refused).toEqual(['bad_signature', 'bad_signature', 'bad_signature']);
    expect(JSON.stringify(warn.mock.calls)).not.toContain(PAYSTACK_SECRET_KEY);
    warn.mockRestore();
    expect((await paymentRow(t, p.payment.id)).status).toBe('pending');
  });

  it('answers 404 for an unknown configuration or one of another provider, and records nothing', async () => {
    const tenant = await t.tenant();
    const mpesa = await mpesaConfig(t, tenant);
    const body = JSON.stringify({ event: 'charge.success', data: { id: 1, reference: 'x' } });
    expectError(await postRaw('/api/v1/payments/paystack/webhooks/ppc_unknown', body, { 'x-paystack-signature': paystackSign(body) }), 404, 'resource_not_found');
    expectError(await postRaw(`/api/v1/payments/paystack/webhooks/${mpesa.id}`, body, { 'x-paystack-signature': paystackSign(body) }), 404, 'resource_not_found');
    expectError(await postRaw(`/api/v1/payments/square/webhooks/${mpesa.id}`, body, {}), 404, 'resource_not_found');
    expect(await inboxOf(t, mpesa.id)).toEqual([]);
  });

  it('a refund.processed notice settles the pending refund after asking Paystack', async () => {
    const tenant = await t.tenant();
    const config = await signedConfig(t, tenant, { type: 'paystack', secret_key: PAYSTACK_SECRET_KEY });
    paystack.webhookUrl = config.webhook_url;
    const p = await pendingProviderPayment(t, tenant, config.id, { card: true });
    paystack.complete(p.reference, '4242424242424242');
    await until(() => paystack.deliveries.some((d) => d.url === config.webhook_url && d.status !== null));
    await applyInbox(t, config.id);
    const refund = expectStatus(await t.http().post(`/v1/orders/${p.booking.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', 'r1').send({ amount: 500 }), 201).data;
    expect(refund.status).toBe('pending');
    // Reconciliation sends it to Paystack; Paystack's refund.processed webhook then settles it.
    await reconcileDuePayments(t.ctx);
    await until(() => paystack.deliveries.some((d) => d.body.includes('refund.processed') && d.status !== null));
    expect(await applyInbox(t, config.id)).toEqual(['succeeded']);
    expect(expectStatus(await t.http().get(`/v1/refunds/${refund.id}`).set(sk(tenant)), 200).data).toMatchObject({ status: 'succeeded', amount: 500 });
    expect(await eventsOf(t, tenant, 'payments.refund.succeeded')).toHaveLength(1);
  });
});

describe('POST /api/v1/payments/stripe/webhooks/{ppc}', () => {
  const stripeConfig = (tenant: Awaited<ReturnType<typeof t.tenant>>) => signedConfig(t, tenant, { type: 'stripe', secret_key: STRIPE_SECRET_KEY, webhook_secret: STRIPE_WEBHOOK_SECRET });

  it('records a signed checkout.session.completed; the job retrieves the session and pays the order', async () => {
    const tenant = await t.tenant();
    const config = await stripeConfig(tenant);
    stripe.webhookUrl = config.webhook_url;
    const p = await pendingProviderPayment(t, tenant, config.id, { card: true });
    stripe.complete(p.reference, '4242424242424242');
    await until(() => stripe.deliveries.some((d) => d.url === config.webhook_url && d.body.includes('checkout.session.completed') && d.status !== null));
    expect(stripe.deliveries.filter((d) => d.url === config.webhook_url).map((d) => d.status)).toEqual([200]);
    expect(await applyInbox(t, config.id)).toEqual(['succeeded']);
    expect(await getOrder(t, tenant, p.booking.id)).toMatchObject({ status: 'paid', amount_paid: 1500 });
  });

  it('refuses a forged signature and a delivery over five minutes old with 401, recording nothing', async () => {
    const tenant = await t.tenant();
    const config = await stripeConfig(tenant);
    const path = new URL(config.webhook_url).pathname;
    const body = JSON.stringify({ id: 'evt_forged', object: 'event', type: 'checkout.session.completed', data: { object: { id: 'cs_x', object: 'checkout.session' } } });
    expectError(await postRaw(path, body, { 'stripe-signature': stripeSignatureHeader(body, 'whsec_not_the_secret') }), 401, 'provider_webhook_refused');
    expectError(await postRaw(path, body, { 'stripe-signature': stripeSignatureHeader(body, STRIPE_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 600) }), 401, 'provider_webhook_refused');
    expectError(await postRaw(path, body, {}), 401, 'provider_webhook_refused');
    expect(await inboxOf(t, config.id)).toEqual([]);
  });
});
