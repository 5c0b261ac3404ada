import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentProviderError } from '../../src/modules/payments/providers/provider-errors';
import { STRIPE_API_VERSION, StripeClient, stripeFailureCode, stripeKeyMode, StripeWebhookRefused, verifyStripeWebhook } from '../../src/modules/payments/providers/stripe/stripe-client';
import { CallbackSink } from '../kit/fakes/callback-sink';
import { until } from '../kit/fakes/fake-provider';
import { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, StripeFake, stripeSignatureHeader } from '../kit/fakes/stripe-fake';

const stripe = new StripeFake();
const sink = new CallbackSink({ status: 200, body: { received: true } });

beforeAll(async () => {
  await Promise.all([stripe.start(), sink.start()]);
  stripe.webhookUrl = `${sink.url}/stripe`;
  stripe.callbackDelayMs = 20;
});
afterAll(async () => {
  await Promise.all([stripe.stop(), sink.stop()]);
});

const client = (secretKey = STRIPE_SECRET_KEY, timeoutMs = 2000, maxNetworkRetries = 2) => new StripeClient({ baseUrl: stripe.url, secretKey, timeoutMs, maxNetworkRetries });
let n = 0;
const session = (c = client(), over: Partial<Parameters<StripeClient['createCheckoutSession']>[0]> = {}) =>
  c.createCheckoutSession({
    clientReferenceId: `pay_test${++n}`,
    amount: 150000,
    currency: 'KES',
    description: 'Two tickets',
    successUrl: 'https://svc.example/checkout/cs_1/return?session={CHECKOUT_SESSION_ID}',
    cancelUrl: 'https://svc.example/checkout/cs_1/return',
    expiresAt: new Date(Date.now() + 10 * 60_000),
    customerEmail: 'buyer@example.com',
    idempotencyKey: `pay_test${n}`,
    ...over,
  });

async function refusal(p: Promise<unknown>): Promise<PaymentProviderError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(PaymentProviderError);
  expect((err as Error).message).not.toContain(STRIPE_SECRET_KEY);
  return err as PaymentProviderError;
}

const eventsOf = (type: string) => sink.received.map((r) => ({ r, e: r.json as Stripe.Event })).filter((x) => x.e.type === type);

describe('Stripe Checkout Sessions', () => {
  it('creates a session through the SDK, pinned to the API version, with the expiry clamped to 30 minutes', async () => {
    const s = await session();
    const req = stripe.requestsTo('/v1/checkout/sessions').at(-1)!;
    expect(req.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    expect(req.headers['idempotency-key']).toBe(`pay_test${n}`);
    expect(s).toMatchObject({ object: 'checkout.session', status: 'open', payment_status: 'unpaid', amount_total: 150000, currency: 'kes', client_reference_id: `pay_test${n}` });
    expect(s.expires_at - Date.now() / 1000).toBeGreaterThan(30 * 60);
    expect(s.url).toBe(`${stripe.url}/c/pay/${s.id}`);
  });

  it('is paid on the hosted page: redirect to success_url, a signed checkout.session.completed, and a retrieve that says paid', async () => {
    const s = await session();
    const back = await fetch(s.url!, { method: 'POST', body: new URLSearchParams({ payer: '4242424242424242', action: 'pay' }), redirect: 'manual' });
    expect([back.status, back.headers.get('location')]).toEqual([303, `https://svc.example/checkout/cs_1/return?session=${s.id}`]);
    await until(() => eventsOf('checkout.session.completed').some((x) => (x.e.data.object as Stripe.Checkout.Session).id === s.id));
    const { r } = eventsOf('checkout.session.completed').find((x) => (x.e.data.object as Stripe.Checkout.Session).id === s.id)!;
    expect(verifyStripeWebhook(Buffer.from(r.raw), r.headers['stripe-signature'], STRIPE_WEBHOOK_SECRET).type).toBe('checkout.session.completed');
    const got = await client().retrieveCheckoutSession(s.id);
    expect(got).toMatchObject({ status: 'complete', payment_status: 'paid', payment_intent: { object: 'payment_intent', status: 'succeeded', amount: 150000 } });
  });

  it('a declined card leaves the session open with the decline on its PaymentIntent', async () => {
    const s = await session();
    stripe.complete(s.id, '4000000000009995');
    const got = await client().retrieveCheckoutSession(s.id);
    const pi = got.payment_intent as Stripe.PaymentIntent;
    expect([got.status, pi.status, stripeFailureCode(pi.last_payment_error?.decline_code)]).toEqual(['open', 'requires_payment_method', 'insufficient_funds']);
  });

  it('expires an open session (checkout.session.expired) and refuses to expire it twice', async () => {
    const s = await session();
    expect((await client().expireCheckoutSession(s.id)).status).toBe('expired');
    await until(() => eventsOf('checkout.session.expired').some((x) => (x.e.data.object as Stripe.Checkout.Session).id === s.id));
    expect((await refusal(client().expireCheckoutSession(s.id))).kind).toBe('rejected');
    expect((await refusal(client().retrieveCheckoutSession('cs_test_nope'))).kind).toBe('not_found');
  });
});

describe('Stripe off-session payments and refunds', () => {
  async function savedCard(card: string) {
    const s = await session(client(), { saveCard: true });
    stripe.complete(s.id, card);
    const pi = (await client().retrieveCheckoutSession(s.id)).payment_intent as Stripe.PaymentIntent;
    return { customer: pi.customer as string, paymentMethod: pi.payment_method as string, pi };
  }

  it('charges a saved card off-session; the renewal card 4000000000000341 is declined with its code', async () => {
    const ok = await savedCard('4242424242424242');
    expect(stripe.requestsTo('/v1/checkout/sessions').at(-1)!.raw).toContain('payment_intent_data[setup_future_usage]=off_session');
    const renewal = await client().createOffSessionPayment({ ...ok, amount: 50000, currency: 'KES', idempotencyKey: `ren_${n}` });
    expect(renewal.status).toBe('succeeded');
    const bad = await savedCard('4000000000000341');
    const e = await refusal(client().createOffSessionPayment({ ...bad, amount: 50000, currency: 'KES', idempotencyKey: `ren_${n}_bad` }));
    expect([e.kind, e.status, e.providerCode]).toEqual(['rejected', 402, 'generic_decline']);
  });

  it('refunds: pending, then succeeded with refund.updated; 5126 fails; 7726 waits', async () => {
    const ok = (await savedCard('4242424242424242')).pi;
    const r = await client().createRefund({ paymentIntent: ok.id, amount: 50000, idempotencyKey: `re_${n}` });
    expect(r).toMatchObject({ object: 'refund', status: 'pending', amount: 50000 });
    const failing = await client().createRefund({ paymentIntent: (await savedCard('4000000000005126')).pi.id, idempotencyKey: `re_${n}_f` });
    const held = await client().createRefund({ paymentIntent: (await savedCard('4000000000007726')).pi.id, idempotencyKey: `re_${n}_h` });
    await until(() => stripe.state.refunds.get(r.id)!.status === 'succeeded' && stripe.state.refunds.get(failing.id)!.status === 'failed');
    expect((await client().retrieveRefund(r.id)).status).toBe('succeeded');
    expect((await client().retrieveRefund(failing.id)).failure_reason).toBe('declined');
    expect((await client().retrieveRefund(held.id)).status).toBe('pending');
    await until(() => eventsOf('refund.updated').some((x) => (x.e.data.object as Stripe.Refund).id === r.id));
    const e = await refusal(client().createRefund({ paymentIntent: ok.id, amount: 200000, idempotencyKey: `re_${n}_big` }));
    expect(e.kind).toBe('rejected');
  });

  it('an idempotency key replayed gets the first answer, not a second refund', async () => {
    const ok = (await savedCard('4242424242424242')).pi;
    const a = await client().createRefund({ paymentIntent: ok.id, amount: 1000, idempotencyKey: `same_${n}` });
    const b = await client().createRefund({ paymentIntent: ok.id, amount: 1000, idempotencyKey: `same_${n}` });
    expect(b.id).toBe(a.id);
  });
});

describe('Stripe credentials and faults', () => {
  it('reads the account; a bad key is credentials_refused and the error holds no key', async () => {
    expect((await client().retrieveAccount()).id).toBe('acct_1FakeSvcTest0001');
    const e = await refusal(client('sk_test_wrongwrongwrong0000').retrieveAccount());
    expect([e.kind, e.status]).toEqual(['credentials_refused', 401]);
    expect(e.message).not.toContain('sk_test_wrongwrongwrong0000');
    expect([stripeKeyMode(STRIPE_SECRET_KEY), stripeKeyMode('rk_live_abcdefgh12'), stripeKeyMode('pk_test_abcdefgh12')]).toEqual(['test', 'live', null]);
  });

  it('the SDK retries a 5xx; past its retries a 5xx or a hang is unavailable and retryable', async () => {
    stripe.failNext('/v1/account', { kind: 'status', status: 500, body: { error: { type: 'api_error', message: 'Something went wrong' } } }, 1);
    await expect(client().retrieveAccount()).resolves.toMatchObject({ object: 'account' });
    stripe.failNext('/v1/account', { kind: 'status', status: 503, body: { error: { type: 'api_error', message: 'Down' } } }, 3);
    const down = await refusal(client(STRIPE_SECRET_KEY, 2000, 1).retrieveAccount());
    expect([down.kind, down.retryable]).toEqual(['unavailable', true]);
    stripe.failNext('/v1/account', { kind: 'hang' }, 1);
    const slow = await refusal(client(STRIPE_SECRET_KEY, 200, 0).retrieveAccount());
    expect([slow.kind, slow.retryable]).toEqual(['unavailable', true]);
  });
});

describe('Stripe-Signature', () => {
  const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'checkout.session.completed', data: { object: { id: 'cs_test_1' } } });
  it('takes a good signature, refuses a bad, a tampered, a replayed-too-old one and a missing header', () => {
    expect(verifyStripeWebhook(body, stripeSignatureHeader(body, STRIPE_WEBHOOK_SECRET), STRIPE_WEBHOOK_SECRET).id).toBe('evt_1');
    expect(verifyStripeWebhook(Buffer.from(body), stripeSignatureHeader(body, STRIPE_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 290), STRIPE_WEBHOOK_SECRET).id).toBe('evt_1');
    const refused = (b: string, header: string | undefined) => () => verifyStripeWebhook(b, header, STRIPE_WEBHOOK_SECRET);
    expect(refused(body, stripeSignatureHeader(body, 'whsec_other'))).toThrow(StripeWebhookRefused);
    expect(refused(body.replace('cs_test_1', 'cs_test_2'), stripeSignatureHeader(body, STRIPE_WEBHOOK_SECRET))).toThrow(StripeWebhookRefused);
    expect(refused(body, stripeSignatureHeader(body, STRIPE_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 301))).toThrow(/tolerance/i);
    expect(refused(body, undefined)).toThrow('No Stripe-Signature header.');
    expect(refused(body, 't=1,v1=00')).toThrow(StripeWebhookRefused);
  });
});
