import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaystackClient, paystackFailureCode, paystackKeyMode } from '../../src/modules/payments/providers/paystack/paystack-client';
import { paystackSignature, verifyPaystackSignature } from '../../src/modules/payments/providers/paystack/paystack-signature';
import { PaymentProviderError } from '../../src/modules/payments/providers/provider-errors';
import { CallbackSink } from '../kit/fakes/callback-sink';
import { until } from '../kit/fakes/fake-provider';
import { PAYSTACK_SECRET_KEY, PaystackFake } from '../kit/fakes/paystack-fake';

const paystack = new PaystackFake();
const sink = new CallbackSink({ status: 200, body: {} });

beforeAll(async () => {
  await Promise.all([paystack.start(), sink.start()]);
  paystack.webhookUrl = `${sink.url}/paystack`;
  paystack.callbackDelayMs = 20;
});
afterAll(async () => {
  await Promise.all([paystack.stop(), sink.stop()]);
});

const client = (secretKey = PAYSTACK_SECRET_KEY, timeoutMs = 2000) => new PaystackClient({ baseUrl: paystack.url, secretKey, http: { timeoutMs, attempts: 3, backoffMs: 10 } });
let n = 0;
const init = (c = client(), over: Partial<Parameters<PaystackClient['initializeTransaction']>[0]> = {}) =>
  c.initializeTransaction({ email: 'buyer@example.com', amount: 150000, currency: 'KES', reference: `pay-test${++n}${Date.now()}`, callbackUrl: 'https://svc.example/checkout/cs_1/return', channels: ['card'], ...over });

async function refusal(p: Promise<unknown>): Promise<PaymentProviderError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(PaymentProviderError);
  expect(`${(err as Error).message}`).not.toContain(PAYSTACK_SECRET_KEY);
  return err as PaymentProviderError;
}

describe('Paystack transactions', () => {
  it('initializes, is paid on the hosted page, sends a signed charge.success, and verifies', async () => {
    const t = await init();
    expect(t.authorizationUrl).toBe(`${paystack.url}/checkout/${t.accessCode}`);
    expect(paystack.requestsTo('/transaction/initialize').at(-1)!.json).toMatchObject({ amount: 150000, currency: 'KES', channels: ['card'], callback_url: 'https://svc.example/checkout/cs_1/return' });
    expect(await client().verifyTransaction(t.reference)).toMatchObject({ status: 'abandoned', amount: 150000 });

    const page = await fetch(t.authorizationUrl);
    expect(await page.text()).toContain('KES 1500.00');
    const back = await fetch(t.authorizationUrl, { method: 'POST', body: new URLSearchParams({ payer: '4242424242424242', action: 'pay' }), redirect: 'manual' });
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(`https://svc.example/checkout/cs_1/return?trxref=${t.reference}&reference=${t.reference}`);

    await until(() => sink.received.some((r) => r.raw.includes(t.reference)));
    const hook = sink.received.find((r) => r.raw.includes(t.reference))!;
    expect(verifyPaystackSignature(Buffer.from(hook.raw), hook.headers['x-paystack-signature'], PAYSTACK_SECRET_KEY)).toBe(true);
    expect(hook.json).toMatchObject({ event: 'charge.success', data: { reference: t.reference, status: 'success', amount: 150000 } });

    const v = await client().verifyTransaction(t.reference);
    expect(v).toMatchObject({ status: 'success', amount: 150000, currency: 'KES', gatewayResponse: 'Successful', authorization: { reusable: true, last4: '4242' } });
  });

  it.each([
    ['4000000000009995', 'failed', 'insufficient_funds'],
    ['4000000000000002', 'failed', 'declined'],
    ['+254711000003', 'ongoing', null],
  ])('%s verifies %s', async (payer, status, code) => {
    const t = await init();
    paystack.complete(t.reference, payer);
    const v = await client().verifyTransaction(t.reference);
    expect(v.status).toBe(status);
    if (code) expect(paystackFailureCode(v.gatewayResponse)).toBe(code);
  });

  it('charges a saved card; the renewal card 4000000000000341 is declined on renewal', async () => {
    for (const [card, status] of [['4242424242424242', 'success'], ['4000000000000341', 'failed']] as const) {
      const t = await init();
      paystack.complete(t.reference, card);
      const { authorization } = await client().verifyTransaction(t.reference);
      const renewal = await client().chargeAuthorization({ email: 'buyer@example.com', amount: 150000, currency: 'KES', authorizationCode: authorization!.authorizationCode, reference: `ren-${t.reference}` });
      expect(renewal.status).toBe(status);
    }
  });

  it('refuses an unknown reference (not_found), a duplicate reference and an unsupported currency (rejected)', async () => {
    expect((await refusal(client().verifyTransaction('nope-1'))).kind).toBe('not_found');
    const t = await init();
    expect((await refusal(init(client(), { reference: t.reference }))).kind).toBe('rejected');
    const e = await refusal(init(client(), { currency: 'EUR' }));
    expect([e.kind, e.message]).toEqual(['rejected', 'Paystack refused the transaction: Currency not supported by merchant']);
  });
});

describe('Paystack refunds', () => {
  async function paidWith(card: string) {
    const t = await init();
    paystack.complete(t.reference, card);
    return t.reference;
  }

  it('queues a refund, which is processed later with a signed refund.processed', async () => {
    const reference = await paidWith('4242424242424242');
    const r = await client().createRefund({ transaction: reference, amount: 50000 });
    expect(r).toMatchObject({ status: 'pending', amount: 50000, currency: 'KES', transactionReference: reference });
    await until(() => sink.received.some((x) => x.raw.includes('refund.processed') && x.raw.includes(reference)));
    expect((await client().fetchRefund(r.id)).status).toBe('processed');
  });

  it('4000000000005126 refunds fail; 4000000000007726 refunds wait until settled', async () => {
    const failing = await client().createRefund({ transaction: await paidWith('4000000000005126') });
    const held = await client().createRefund({ transaction: await paidWith('4000000000007726') });
    await until(() => paystack.refunds.get(failing.id)!.status === 'failed');
    expect((await client().fetchRefund(held.id)).status).toBe('pending');
    paystack.settleRefund(held.id, 'processed');
    expect((await client().fetchRefund(held.id)).status).toBe('processed');
  });

  it('refuses a refund above what is left', async () => {
    const reference = await paidWith('4242424242424242');
    expect((await refusal(client().createRefund({ transaction: reference, amount: 150001 }))).kind).toBe('rejected');
  });
});

describe('Paystack credentials and faults', () => {
  it('reads the balance with a good key; refuses a bad one as credentials_refused without echoing it', async () => {
    expect((await client().checkCredentials()).balances.length).toBeGreaterThan(0);
    const e = await refusal(client('sk_test_wrongwrongwrong').checkCredentials());
    expect([e.kind, e.status, e.message]).toEqual(['credentials_refused', 401, 'Paystack refused the secret key for the balance: Invalid key']);
  });

  it('knows a key mode by its prefix', () => {
    expect([paystackKeyMode(PAYSTACK_SECRET_KEY), paystackKeyMode('sk_live_abcdefgh1234'), paystackKeyMode('pk_test_abcdefgh1234'), paystackKeyMode('sk_test_')]).toEqual(['test', 'live', null, null]);
  });

  it('retries a verify through 5xx; does not retry an initialize; a hang is a retryable timeout', async () => {
    const t = await init();
    paystack.failNext('/transaction/verify/', { kind: 'status', status: 502 }, 2);
    await expect(client().verifyTransaction(t.reference)).resolves.toMatchObject({ reference: t.reference });
    const before = paystack.requestsTo('/transaction/initialize').length;
    paystack.failNext('/transaction/initialize', { kind: 'status', status: 500, body: { status: false, message: 'An error occurred' } });
    const e = await refusal(init());
    expect([e.kind, e.retryable, paystack.requestsTo('/transaction/initialize').length - before]).toEqual(['unavailable', true, 1]);
    paystack.failNext('/balance', { kind: 'hang' }, 3);
    expect((await refusal(client(PAYSTACK_SECRET_KEY, 150).checkCredentials())).kind).toBe('unavailable');
  });
});

describe('x-paystack-signature', () => {
  const body = JSON.stringify({ event: 'charge.success', data: { reference: 'pay-1', amount: 100 } });
  it('takes the right HMAC-SHA512 and refuses anything else', () => {
    const good = paystackSignature(body, PAYSTACK_SECRET_KEY);
    expect(good).toMatch(/^[0-9a-f]{128}$/);
    expect(verifyPaystackSignature(body, good, PAYSTACK_SECRET_KEY)).toBe(true);
    expect(verifyPaystackSignature(Buffer.from(body), good.toUpperCase(), PAYSTACK_SECRET_KEY)).toBe(true);
    expect(verifyPaystackSignature(body.replace('100', '900'), good, PAYSTACK_SECRET_KEY)).toBe(false);
    expect(verifyPaystackSignature(body, paystackSignature(body, 'sk_test_other'), PAYSTACK_SECRET_KEY)).toBe(false);
    expect(verifyPaystackSignature(body, good.slice(0, 64), PAYSTACK_SECRET_KEY)).toBe(false);
    expect(verifyPaystackSignature(body, undefined, PAYSTACK_SECRET_KEY)).toBe(false);
    expect(verifyPaystackSignature(body, [good], PAYSTACK_SECRET_KEY)).toBe(false);
  });
});
