import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError, type AttemptRef, type InboundNotification, type ProviderCredentials, type StartPaymentInput } from '../../src/modules/payments/provider';
import type { AdapterEnvironment } from '../../src/modules/payments/providers/adapter-kit';
import { mpesaDefinition } from '../../src/modules/payments/providers/mpesa/mpesa.provider';
import { providerDefinition } from '../../src/modules/payments/providers/registry';
import { CallbackSink } from '../kit/fakes/callback-sink';
import * as fake from '../kit/fakes/daraja-fake';
import { until } from '../kit/fakes/fake-provider';

const daraja = new fake.DarajaFake();
const sink = new CallbackSink();
beforeAll(async () => {
  await Promise.all([daraja.start(), sink.start()]);
  daraja.callbackDelayMs = 20;
});
afterAll(async () => {
  await Promise.all([daraja.stop(), sink.stop()]);
});

const credentials = (secrets: Record<string, string> = {}, account: Record<string, string | null> = {}): ProviderCredentials => ({
  configId: 'ppc_test',
  livemode: false,
  account: { shortcode: fake.DARAJA_SHORTCODE, shortcode_type: 'paybill', till_number: null, initiator_name: fake.DARAJA_INITIATOR, b2c_shortcode: null, ...account },
  secrets: { consumer_key: fake.DARAJA_CONSUMER_KEY, consumer_secret: fake.DARAJA_CONSUMER_SECRET, passkey: fake.DARAJA_PASSKEY, initiator_password: fake.DARAJA_INITIATOR_PASSWORD, ...secrets },
});
const env = (over: Partial<AdapterEnvironment> = {}): AdapterEnvironment => ({ apiUrl: daraja.url, now: () => new Date(), securityCertificate: daraja.certificatePem, http: { timeoutMs: 2000, attempts: 2, backoffMs: 10 }, ...over });
const provider = (c = credentials(), e = env()) => mpesaDefinition.create(c, e);

let n = 0;
const start = (phone: string, p = provider()) => {
  const input: StartPaymentInput = { paymentId: `pay_m${++n}`, orderCode: 'K7Q2XW9B', amount: 150000, currency: 'KES', method: 'mobile_money', phone, cardNumber: null, email: null, description: 'Svc tickets', callbackUrl: `${sink.url}/mpesa/${n}`, returnUrl: 'https://svc.example/return', expiresAt: new Date(Date.now() + 900_000) };
  return { input, result: p.startPayment(input) };
};
const attempt = (reference: string | null, receipt: string | null = null): AttemptRef => ({ paymentId: 'pay_x', providerReference: reference, providerReceipt: receipt, amount: 150000, currency: 'KES', method: 'mobile_money', payerHint: null });
const inbound = (raw: string) => ({ headers: {}, rawBody: Buffer.from(raw), token: 'tok' });

async function providerError(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ProviderError);
  for (const s of [fake.DARAJA_CONSUMER_SECRET, fake.DARAJA_PASSKEY, fake.DARAJA_INITIATOR_PASSWORD]) expect((err as Error).message).not.toContain(s);
  return err as ProviderError;
}

describe('the M-Pesa definition', () => {
  it('is registered, with its fields, capabilities and amounts', () => {
    expect(providerDefinition('mpesa')).toBe(mpesaDefinition);
    expect([mpesaDefinition.defaultApiUrl(true), mpesaDefinition.defaultApiUrl(false)]).toEqual(['https://api.safaricom.co.ke', 'https://sandbox.safaricom.co.ke']);
    expect(mpesaDefinition.capabilities({ initiator_name: 'api', b2c_shortcode: null })).toEqual({ refunds: true, payouts: false, automatic_renewal: false });
    expect([mpesaDefinition.accepts(150000, 'KES'), mpesaDefinition.accepts(150050, 'KES'), mpesaDefinition.accepts(150000, 'USD'), mpesaDefinition.accepts(50, 'KES')]).toEqual([true, false, false, false]);
  });

  it.each([
    [{ shortcode: '12' }, {}, 'shortcode'],
    [{ shortcode_type: 'bank' }, {}, 'shortcode_type'],
    [{ shortcode_type: 'till', till_number: null }, {}, 'till_number'],
    [{}, { passkey: '' }, 'passkey'],
    [{}, { consumer_key: 'has space' }, 'consumer_key'],
    [{ initiator_name: null }, {}, 'initiator_name'],
  ])('checks the form: %j %j → %s', (account, secrets, param) => {
    const c = credentials(secrets as Record<string, string>, account as Record<string, string | null>);
    if ('passkey' in secrets && !secrets.passkey) delete c.secrets.passkey;
    expect(mpesaDefinition.checkForm(c)).toMatchObject({ kind: 'credentials', detail: { param, reason: 'malformed' } });
  });

  it('verifies the consumer pair with an OAuth token; a bad pair is credentials/consumer_secret', async () => {
    expect(mpesaDefinition.checkForm(credentials())).toBeNull();
    await expect(provider().verifyCredentials()).resolves.toEqual({ account: {} });
    const e = await providerError(provider(credentials({ consumer_secret: 'nope-nope' })).verifyCredentials());
    expect([e.kind, e.detail.param, e.detail.reason]).toEqual(['credentials', 'consumer_secret', 'rejected']);
  });
});

describe('M-Pesa payments through the adapter', () => {
  it('prompts the phone, reads the signed-less callback as a hint, and the query decides', async () => {
    const { input, result } = start('0711000000');
    const r = await result;
    expect(r).toMatchObject({ providerReference: expect.stringMatching(/^ws_CO_/), state: { status: 'pending' }, nextAction: { type: 'confirm_on_phone', phone_hint: '0000' } });
    await until(() => sink.to(`/mpesa/${n}`).length === 1);
    const note = provider().parseNotification(inbound(sink.to(`/mpesa/${n}`)[0]!.raw)) as InboundNotification;
    expect(note).toMatchObject({ kind: 'payment', reference: r.providerReference, providerEventId: `stk:${r.providerReference}:0`, hint: { status: 'succeeded', amount: 150000, currency: 'KES' }, providerReceipt: expect.any(String) });
    expect(await provider().queryPayment(attempt(r.providerReference))).toEqual({ status: 'succeeded', amount: input.amount, currency: 'KES', providerReceipt: null });
  });

  it('a cancelled prompt fails with cancelled_by_user; an unanswered one stays pending', async () => {
    const cancelled = await start('+254711000004').result;
    await until(() => daraja.stk.get(cancelled.providerReference!)?.result !== null);
    expect(await provider().queryPayment(attempt(cancelled.providerReference))).toEqual({ status: 'failed', failureCode: 'cancelled_by_user', failureMessage: 'Request cancelled by user' });
    const silent = await start('+254711000003').result;
    expect(await provider().queryPayment(attempt(silent.providerReference))).toEqual({ status: 'pending' });
  });

  it('a busy phone fails the attempt with subscriber_busy; a bad phone and a wrong passkey are errors', async () => {
    daraja.busyWhilePending = true;
    try {
      await start('+254711000003').result;
      expect(await start('+254711000003').result).toMatchObject({ providerReference: null, state: { status: 'failed', failureCode: 'subscriber_busy' } });
    } finally {
      daraja.busyWhilePending = false;
    }
    expect((await providerError(start('+255712345678').result)).detail).toMatchObject({ param: 'phone' });
    const e = await providerError(start('0711000000', provider(credentials({ passkey: 'not-the-passkey' }))).result);
    expect([e.kind, e.detail.param]).toEqual(['credentials', 'passkey']);
    daraja.failNext('/mpesa/stkpush/v1/processrequest', { kind: 'status', status: 503 });
    expect((await providerError(start('0711000000').result)).kind).toBe('unavailable');
  });
});

describe('M-Pesa refunds through the adapter', () => {
  async function paid(phone: string) {
    const r = await start(phone).result;
    await until(() => Boolean(daraja.stk.get(r.providerReference!)?.receipt));
    return attempt(r.providerReference, daraja.stk.get(r.providerReference!)!.receipt);
  }
  const refund = (payment: AttemptRef, p = provider()) => p.refund({ refundId: `re_${++n}`, payment, amount: 150000, currency: 'KES', callbackUrl: `${sink.url}/reversal/${n}` });

  it('sends a reversal; its result settles the refund (or fails it with insufficient_balance for +254711000005)', async () => {
    const ok = await refund(await paid('0711000000'));
    // The reference is the reversal's OriginatorConversationID: what Transaction Status finds it by.
    expect(ok).toMatchObject({ providerReference: expect.any(String), state: { status: 'pending' } });
    expect(daraja.reversals.has(ok.providerReference!)).toBe(true);
    const okPath = `/reversal/${n}`;
    const poor = await refund(await paid('+254711000005'));
    const poorPath = `/reversal/${n}`;
    await until(() => sink.to(okPath).length === 1 && sink.to(poorPath).length === 1);
    expect(provider().parseNotification(inbound(sink.to(okPath)[0]!.raw))).toMatchObject({ kind: 'refund', reference: ok.providerReference, hint: { status: 'succeeded' } });
    expect(provider().parseNotification(inbound(sink.to(poorPath)[0]!.raw))).toMatchObject({ kind: 'refund', reference: poor.providerReference, hint: { status: 'failed', failureCode: 'insufficient_balance' } });
    expect(await provider().queryRefund({ refundId: 're_1', providerReference: ok.providerReference, payment: attempt(null) })).toBeNull();
  });

  it('a reversal whose result was lost is asked about with Transaction Status, whose result at the address says it completed', async () => {
    daraja.loseReversalResults = true;
    try {
      const lost = await refund(await paid('0711000000'));
      const statusPath = `/status/${n}`;
      const asked = daraja.requestsTo('/mpesa/transactionstatus/v1/query').length;
      expect(await provider().queryRefund({ refundId: `re_${n}`, providerReference: lost.providerReference, payment: attempt(null), callbackUrl: `${sink.url}${statusPath}` })).toBeNull();
      const query = daraja.requestsTo('/mpesa/transactionstatus/v1/query')[asked]!.json as Record<string, unknown>;
      expect(query).toMatchObject({ CommandID: 'TransactionStatusQuery', OriginalConversationID: lost.providerReference, ResultURL: `${sink.url}${statusPath}` });
      await until(() => sink.to(statusPath).length === 1);
      expect(provider().parseNotification(inbound(sink.to(statusPath)[0]!.raw))).toMatchObject({ kind: 'refund', reference: null, hint: { status: 'succeeded' } });
      // Not found (a reversal that failed, or none): a failed result under the query's own reference, not the reversal's.
      const unknownPath = `/status/unknown-${n}`;
      await provider().queryRefund({ refundId: `re_${n}`, providerReference: 'no-such-originator', payment: attempt(null), callbackUrl: `${sink.url}${unknownPath}` });
      await until(() => sink.to(unknownPath).length === 1);
      const unknown = provider().parseNotification(inbound(sink.to(unknownPath)[0]!.raw));
      expect(unknown).toMatchObject({ kind: 'refund', hint: { status: 'failed' } });
      expect((unknown as { reference: string }).reference).not.toBe('no-such-originator');
    } finally {
      daraja.loseReversalResults = false;
    }
  });

  it('without the certificate the refund fails refunds_unavailable; without a receipt it is refused', async () => {
    const payment = await paid('0711000000');
    expect(await refund(payment, provider(credentials(), env({ securityCertificate: null })))).toMatchObject({ providerReference: null, state: { status: 'failed', failureCode: 'refunds_unavailable' } });
    expect((await providerError(refund(attempt('ws_CO_x', null)))).kind).toBe('rejected');
  });

  it('refuses bodies that are not Daraja notifications', () => {
    expect(provider().parseNotification(inbound('not json'))).toMatchObject({ refused: 'malformed' });
    expect(provider().parseNotification(inbound('{"hello":1}'))).toMatchObject({ refused: 'malformed' });
    const status = fake.resultBody({ resultCode: 0, resultDesc: 'ok', originatorConversationId: 'o', conversationId: 'AG_1', transactionId: 'TKX', parameters: { ReceiptNo: 'TKX', TransactionStatus: 'Completed' }, timeoutUrl: 'http://t' });
    expect(provider().parseNotification(inbound(JSON.stringify(status)))).toMatchObject({ kind: 'refund', reference: null, hint: { status: 'succeeded' } });
  });
});
