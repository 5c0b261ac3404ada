import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError, type AttemptRef, type InboundNotification, type PaymentProvider, type StartPaymentInput } from '../../src/modules/payments/provider';
import type { AdapterEnvironment } from '../../src/modules/payments/providers/adapter-kit';
import { paystackDefinition } from '../../src/modules/payments/providers/paystack/paystack.provider';
import { providerDefinition } from '../../src/modules/payments/providers/registry';
import { stripeDefinition } from '../../src/modules/payments/providers/stripe/stripe.provider';
import { CallbackSink } from '../kit/fakes/callback-sink';
import { until } from '../kit/fakes/fake-provider';
import { PAYSTACK_LIVE_SECRET_KEY, PAYSTACK_SECRET_KEY, PaystackFake } from '../kit/fakes/paystack-fake';
import { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, StripeFake, stripeSignatureHeader } from '../kit/fakes/stripe-fake';

const paystack = new PaystackFake();
const stripe = new StripeFake();
const sink = new CallbackSink({ status: 200, body: {} });
beforeAll(async () => {
  await Promise.all([paystack.start(), stripe.start(), sink.start()]);
  paystack.webhookUrl = `${sink.url}/paystack`;
  stripe.webhookUrl = `${sink.url}/stripe`;
  paystack.callbackDelayMs = stripe.callbackDelayMs = 20;
});
afterAll(async () => {
  await Promise.all([paystack.stop(), stripe.stop(), sink.stop()]);
});

const now = () => new Date();
const http = { timeoutMs: 2000, attempts: 2, backoffMs: 10 };
const envOf = (apiUrl: string): AdapterEnvironment => ({ apiUrl, now, http });
const paystackProvider = (secret_key = PAYSTACK_SECRET_KEY) => paystackDefinition.create({ configId: 'ppc_p', livemode: false, account: {}, secrets: { secret_key } }, envOf(paystack.url));
const stripeProvider = (secret_key = STRIPE_SECRET_KEY) => stripeDefinition.create({ configId: 'ppc_s', livemode: false, account: {}, secrets: { secret_key, webhook_secret: STRIPE_WEBHOOK_SECRET } }, envOf(stripe.url));

let n = 0;
const input = (method: 'card' | 'mobile_money' = 'card', currency = 'KES'): StartPaymentInput => ({
  paymentId: `pay_c${++n}x${Date.now()}`,
  orderCode: 'K7Q2XW9B',
  amount: 150000,
  currency,
  method,
  phone: method === 'mobile_money' ? '+254711000000' : null,
  cardNumber: null,
  email: null,
  description: 'Two tickets',
  callbackUrl: 'https://svc.example/unused',
  returnUrl: 'https://svc.example/checkout/cs_1/return',
  expiresAt: new Date(Date.now() + 900_000),
});
const attemptOf = (paymentId: string, providerReference: string | null, providerReceipt: string | null = null): AttemptRef => ({ paymentId, providerReference, providerReceipt, amount: 150000, currency: 'KES', method: 'card', payerHint: null });
const lastTo = (path: string, has: string) => () => sink.to(path).filter((r) => r.raw.includes(has)).at(-1);
const asInbound = (r: { raw: string; headers: Record<string, string | string[] | undefined> }) => ({ headers: r.headers, rawBody: Buffer.from(r.raw), token: null });

async function providerError(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ProviderError);
  for (const s of [PAYSTACK_SECRET_KEY, STRIPE_SECRET_KEY]) expect((err as Error).message).not.toContain(s);
  return err as ProviderError;
}

describe('the Paystack adapter', () => {
  let p: PaymentProvider;
  beforeAll(() => {
    p = paystackProvider();
  });

  it('is registered and checks key form and mode', async () => {
    expect(providerDefinition('paystack')).toBe(paystackDefinition);
    const form = (secret_key: string, livemode = false) => paystackDefinition.checkForm({ configId: null, livemode, account: {}, secrets: { secret_key } });
    expect(form(PAYSTACK_SECRET_KEY)).toBeNull();
    expect(form(PAYSTACK_SECRET_KEY, true)).toMatchObject({ kind: 'credentials', detail: { param: 'secret_key', reason: 'wrong_mode' } });
    expect(form(PAYSTACK_LIVE_SECRET_KEY, true)).toBeNull();
    expect(form('pk_test_123456789')).toMatchObject({ detail: { reason: 'malformed' } });
    await expect(p.verifyCredentials()).resolves.toEqual({ account: {} });
    expect((await providerError(paystackProvider('sk_test_wrongwrongwrong').verifyCredentials())).detail).toMatchObject({ param: 'secret_key', reason: 'rejected' });
  });

  it('redirects to the hosted page; charge.success (signed) is a hint; verify decides; a refund settles', async () => {
    const i = input('mobile_money');
    const r = await p.startPayment(i);
    expect(r).toMatchObject({ providerReference: i.paymentId.replace(/_/g, '-'), state: { status: 'pending' }, nextAction: { type: 'redirect' } });
    expect(paystack.requestsTo('/transaction/initialize').at(-1)!.json).toMatchObject({ channels: ['mobile_money'], email: `${r.providerReference}@buyers.example.com`, callback_url: i.returnUrl });
    expect(await p.queryPayment(attemptOf(i.paymentId, r.providerReference))).toEqual({ status: 'pending' });
    paystack.complete(r.providerReference!, '+254711000000');
    await until(() => Boolean(lastTo('/paystack', r.providerReference!)()));
    const note = p.parseNotification(asInbound(lastTo('/paystack', r.providerReference!)()!)) as InboundNotification;
    expect(note).toMatchObject({ kind: 'payment', reference: r.providerReference, hint: { status: 'succeeded', amount: 150000, currency: 'KES' } });
    const state = await p.queryPayment(attemptOf(i.paymentId, r.providerReference));
    expect(state).toMatchObject({ status: 'succeeded', amount: 150000, currency: 'KES', providerReceipt: expect.any(String) });

    const refund = await p.refund({ refundId: 're_1', payment: attemptOf(i.paymentId, r.providerReference), amount: 50000, currency: 'KES', callbackUrl: '' });
    expect(refund.state).toEqual({ status: 'pending' });
    await until(() => sink.to('/paystack').some((x) => x.raw.includes('refund.processed') && x.raw.includes(r.providerReference!)));
    const refundNote = p.parseNotification(asInbound(sink.to('/paystack').find((x) => x.raw.includes('refund.processed') && x.raw.includes(r.providerReference!))!));
    expect(refundNote).toMatchObject({ kind: 'refund', reference: refund.providerReference, hint: { status: 'succeeded' } });
    expect(await p.queryRefund({ refundId: 're_1', providerReference: refund.providerReference, payment: attemptOf(i.paymentId, r.providerReference) })).toEqual({ status: 'succeeded' });
  });

  it('maps card failures, refuses forged notices, and fails an unsupported currency as provider_error', async () => {
    const i = input();
    const r = await p.startPayment(i);
    paystack.complete(r.providerReference!, '4000000000009995');
    expect(await p.queryPayment(attemptOf(i.paymentId, r.providerReference))).toEqual({ status: 'failed', failureCode: 'insufficient_funds', failureMessage: 'Insufficient Funds' });
    const body = JSON.stringify({ event: 'charge.success', data: { reference: r.providerReference, amount: 150000, currency: 'KES', id: 1 } });
    expect(p.parseNotification({ headers: { 'x-paystack-signature': 'ab'.repeat(64) }, rawBody: Buffer.from(body), token: null })).toMatchObject({ refused: 'unauthenticated' });
    expect(p.parseNotification({ headers: {}, rawBody: Buffer.from(body), token: null })).toMatchObject({ refused: 'unauthenticated' });
    expect(await p.startPayment(input('card', 'EUR'))).toMatchObject({ providerReference: null, state: { status: 'failed', failureCode: 'provider_error' } });
    paystack.failNext('/transaction/initialize', { kind: 'status', status: 502 });
    expect((await providerError(p.startPayment(input()))).kind).toBe('unavailable');
  });
});

describe('the Stripe adapter', () => {
  let p: PaymentProvider;
  beforeAll(() => {
    p = stripeProvider();
  });

  it('is registered, checks key form and mode, and learns the account id on verification', async () => {
    expect(providerDefinition('stripe')).toBe(stripeDefinition);
    const form = (secret_key: string, webhook_secret = STRIPE_WEBHOOK_SECRET, livemode = false) => stripeDefinition.checkForm({ configId: null, livemode, account: {}, secrets: { secret_key, webhook_secret } });
    expect(form(STRIPE_SECRET_KEY)).toBeNull();
    expect(form(STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, true)).toMatchObject({ detail: { param: 'secret_key', reason: 'wrong_mode' } });
    expect(form(STRIPE_SECRET_KEY, 'secret')).toMatchObject({ detail: { param: 'webhook_secret', reason: 'malformed' } });
    await expect(p.verifyCredentials()).resolves.toEqual({ account: { account_id: 'acct_1FakeSvcTest0001' } });
    expect((await providerError(stripeProvider('sk_test_wrongwrongwrong0000').verifyCredentials())).kind).toBe('credentials');
  });

  it('opens a Checkout Session; checkout.session.completed is a hint; the retrieve decides; a refund settles', async () => {
    const i = input();
    const r = await p.startPayment(i);
    expect(r).toMatchObject({ providerReference: expect.stringMatching(/^cs_test_/), nextAction: { type: 'redirect', url: `${stripe.url}/c/pay/${r.providerReference}` } });
    expect(await p.queryPayment(attemptOf(i.paymentId, r.providerReference))).toEqual({ status: 'pending' });
    stripe.complete(r.providerReference!, '4242424242424242');
    await until(() => Boolean(lastTo('/stripe', r.providerReference!)()));
    const note = p.parseNotification(asInbound(lastTo('/stripe', r.providerReference!)()!)) as InboundNotification;
    expect(note).toMatchObject({ kind: 'payment', reference: r.providerReference, hint: { status: 'succeeded', amount: 150000, currency: 'KES' }, providerEventId: expect.stringMatching(/^evt_/) });
    const state = await p.queryPayment(attemptOf(i.paymentId, r.providerReference));
    expect(state).toMatchObject({ status: 'succeeded', amount: 150000, currency: 'KES', providerReceipt: expect.stringMatching(/^pi_/) });

    const refund = await p.refund({ refundId: `re_s${n}`, payment: attemptOf(i.paymentId, r.providerReference, null), amount: 50000, currency: 'KES', callbackUrl: '' });
    expect(refund).toMatchObject({ providerReference: expect.stringMatching(/^re_/), state: { status: 'pending' } });
    await until(() => stripe.state.refunds.get(refund.providerReference!)!.status === 'succeeded');
    expect(await p.queryRefund({ refundId: 'x', providerReference: refund.providerReference, payment: attemptOf(i.paymentId, r.providerReference) })).toEqual({ status: 'succeeded' });
  });

  it('cancels by expiring the session (twice is harmless); refuses forged or stale signatures', async () => {
    const i = input();
    const r = await p.startPayment(i);
    await p.cancelPayment(attemptOf(i.paymentId, r.providerReference));
    await p.cancelPayment(attemptOf(i.paymentId, r.providerReference));
    expect(await p.queryPayment(attemptOf(i.paymentId, r.providerReference))).toEqual({ status: 'cancelled' });
    const body = JSON.stringify({ id: 'evt_forged', object: 'event', type: 'checkout.session.completed', data: { object: { id: r.providerReference } } });
    const refused = (header: string) => p.parseNotification({ headers: { 'stripe-signature': header }, rawBody: Buffer.from(body), token: null });
    expect(refused(stripeSignatureHeader(body, 'whsec_not_the_secret'))).toMatchObject({ refused: 'unauthenticated' });
    expect(refused(stripeSignatureHeader(body, STRIPE_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 600))).toMatchObject({ refused: 'unauthenticated' });
    expect(refused(stripeSignatureHeader(body, STRIPE_WEBHOOK_SECRET))).toMatchObject({ kind: 'payment', providerEventId: 'evt_forged' });
  });

  it('refuses mobile money; a Stripe outage is unavailable', async () => {
    expect((await providerError(p.startPayment(input('mobile_money')))).kind).toBe('rejected');
    stripe.failNext('/v1/checkout/sessions', { kind: 'status', status: 503, body: { error: { type: 'api_error', message: 'Down' } } }, 3);
    expect((await providerError(p.startPayment(input()))).kind).toBe('unavailable');
  });
});
