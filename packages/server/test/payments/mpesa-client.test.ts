import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DarajaTokenCache } from '../../src/modules/payments/providers/mpesa/daraja-auth';
import { parseDarajaResult, parseStkCallback } from '../../src/modules/payments/providers/mpesa/daraja-callbacks';
import { DarajaClient } from '../../src/modules/payments/providers/mpesa/daraja-client';
import type { DarajaSettings } from '../../src/modules/payments/providers/mpesa/daraja-types';
import { PaymentProviderError } from '../../src/modules/payments/providers/provider-errors';
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

const settings = (over: Partial<DarajaSettings> = {}): DarajaSettings => ({
  baseUrl: daraja.url,
  consumerKey: fake.DARAJA_CONSUMER_KEY,
  consumerSecret: fake.DARAJA_CONSUMER_SECRET,
  shortcode: fake.DARAJA_SHORTCODE,
  shortcodeType: 'paybill',
  passkey: fake.DARAJA_PASSKEY,
  initiatorName: fake.DARAJA_INITIATOR,
  initiatorPassword: fake.DARAJA_INITIATOR_PASSWORD,
  b2cShortcode: fake.DARAJA_B2C_SHORTCODE,
  securityCertificate: daraja.certificatePem,
  tokens: new DarajaTokenCache(),
  http: { timeoutMs: 2000, attempts: 3, backoffMs: 10 },
  ...over,
});

const SECRETS = [fake.DARAJA_CONSUMER_SECRET, fake.DARAJA_PASSKEY, fake.DARAJA_INITIATOR_PASSWORD];
async function refusal(p: Promise<unknown>): Promise<PaymentProviderError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(PaymentProviderError);
  const e = err as PaymentProviderError;
  for (const s of SECRETS) expect(`${e.message} ${e.stack}`).not.toContain(s);
  return e;
}

let n = 0;
const push = (client: DarajaClient, phone: string, amountKes = 1500) =>
  client.stkPush({ phone, amountKes, accountReference: 'K7Q2XW9B', description: 'Svc tickets for tonight', callbackUrl: `${sink.url}/cb/${++n}` });

describe('Daraja OAuth', () => {
  it('caches one token per credentials and proves them', async () => {
    const tokens = new DarajaTokenCache();
    const before = daraja.requestsTo('/oauth/v1/generate').length;
    const a = new DarajaClient(settings({ tokens }));
    const b = new DarajaClient(settings({ tokens }));
    expect(await a.accessToken()).toBe(await b.accessToken());
    await a.stkQuery('ws_CO_unknown').catch(() => null);
    expect(daraja.requestsTo('/oauth/v1/generate').length - before).toBe(1);
  });

  it('refuses bad credentials as credentials_refused, with no secret in the error', async () => {
    const e = await refusal(new DarajaClient(settings({ consumerSecret: 'wrong-secret-value' })).accessToken());
    expect([e.kind, e.retryable, e.status]).toEqual(['credentials_refused', false, 400]);
    expect(e.message).toContain('Invalid Authentication passed');
    expect(e.message).not.toContain('wrong-secret-value');
  });

  it('fetches a new token when Daraja calls the cached one invalid, once', async () => {
    const client = new DarajaClient(settings());
    await client.accessToken();
    daraja.expireTokens();
    const before = daraja.requestsTo('/oauth/v1/generate').length;
    await expect(push(client, '0711000000')).resolves.toMatchObject({ phone: '254711000000' });
    expect(daraja.requestsTo('/oauth/v1/generate').length - before).toBe(1);
  });
});

describe('STK push and query', () => {
  it('sends the documented request: Nairobi timestamp, password, paybill parties, amount in shillings', async () => {
    const accepted = await push(new DarajaClient(settings()), '+254 711 000 000');
    const req = daraja.requestsTo('/mpesa/stkpush/v1/processrequest').at(-1)!.json as Record<string, unknown>;
    expect(req).toMatchObject({ BusinessShortCode: '174379', TransactionType: 'CustomerPayBillOnline', Amount: 1500, PartyA: '254711000000', PartyB: '174379', PhoneNumber: '254711000000', AccountReference: 'K7Q2XW9B', TransactionDesc: 'Svc tickets f' });
    expect(Buffer.from(String(req.Password), 'base64').toString()).toBe(`174379${fake.DARAJA_PASSKEY}${String(req.Timestamp)}`);
    expect(Math.abs(fake.parseNairobi(String(req.Timestamp)) - Date.now())).toBeLessThan(5000);
    expect(accepted.checkoutRequestId).toMatch(/^ws_CO_/);
  });

  it('pays a till with CustomerBuyGoodsOnline and PartyB = the till', async () => {
    await push(new DarajaClient(settings({ shortcodeType: 'till', tillNumber: fake.DARAJA_TILL })), '0711000000');
    expect(daraja.requestsTo('/mpesa/stkpush/v1/processrequest').at(-1)!.json).toMatchObject({ TransactionType: 'CustomerBuyGoodsOnline', BusinessShortCode: '174379', PartyB: fake.DARAJA_TILL });
  });

  it.each([
    ['+254711000000', 0, { status: 'succeeded' }],
    ['+254711000001', 1, { status: 'failed', failureCode: 'insufficient_funds' }],
    ['+254711000002', 2001, { status: 'failed', failureCode: 'invalid_pin' }],
    ['+254711000004', 1032, { status: 'failed', failureCode: 'cancelled_by_user' }],
    ['+254711000006', 1037, { status: 'failed', failureCode: 'timeout' }],
  ])('%s: the callback and the query agree on %i', async (phone, code, outcome) => {
    const client = new DarajaClient(settings());
    const { checkoutRequestId } = await push(client, phone);
    const path = `/cb/${n}`;
    await until(() => sink.to(path).length === 1);
    const cb = parseStkCallback(sink.to(path)[0]!.json)!;
    expect(cb).toMatchObject({ checkoutRequestId, resultCode: code, outcome });
    if (code === 0) expect(cb).toMatchObject({ amountKes: 1500, phone: '254711000000', receipt: expect.stringMatching(/^[A-Z0-9]{10}$/) });
    else expect(cb.receipt).toBeNull();
    expect(await client.stkQuery(checkoutRequestId)).toEqual({ state: 'final', resultCode: code, resultDesc: expect.any(String), outcome });
  });

  it('a prompt never answered stays pending at the query, until the customer answers', async () => {
    const client = new DarajaClient(settings());
    const { checkoutRequestId } = await push(client, '+254711000003');
    expect(await client.stkQuery(checkoutRequestId)).toEqual({ state: 'pending', description: 'The transaction is being processed' });
    expect(daraja.requestsTo('/mpesa/stkpushquery/v1/query').length).toBeGreaterThan(0);
    daraja.settle(checkoutRequestId, 1032);
    expect(await client.stkQuery(checkoutRequestId)).toMatchObject({ state: 'final', outcome: { status: 'failed', failureCode: 'cancelled_by_user' } });
  });

  it('refuses a phone that is not Kenyan mobile before calling Daraja', async () => {
    const before = daraja.requests.length;
    const e = await refusal(push(new DarajaClient(settings()), '+255712345678'));
    expect([e.kind, e.providerCode, daraja.requests.length]).toEqual(['rejected', 'invalid_phone', before]);
  });

  it('a wrong passkey is a credential refusal (the configuration becomes failing)', async () => {
    const e = await refusal(push(new DarajaClient(settings({ passkey: 'not-the-passkey' })), '0711000000'));
    expect([e.kind, e.providerCode]).toEqual(['credentials_refused', '500.001.1001']);
  });

  it('a second prompt to a busy phone is refused as subscriber_busy', async () => {
    daraja.busyWhilePending = true;
    try {
      const client = new DarajaClient(settings());
      await push(client, '+254711000003');
      const e = await refusal(push(client, '+254711000003'));
      expect([e.kind, e.providerCode]).toEqual(['rejected', 'subscriber_busy']);
    } finally {
      daraja.busyWhilePending = false;
    }
  });
});

describe('faults', () => {
  it('retries a query through 5xx, then answers', async () => {
    const client = new DarajaClient(settings());
    const { checkoutRequestId } = await push(client, '0711000000');
    await until(() => daraja.stk.get(checkoutRequestId)?.result !== null);
    daraja.failNext('/mpesa/stkpushquery/v1/query', { kind: 'status', status: 503 }, 2);
    await expect(client.stkQuery(checkoutRequestId)).resolves.toMatchObject({ state: 'final', resultCode: 0 });
  });

  it('does not retry a push: a 5xx is a retryable error after one request', async () => {
    const client = new DarajaClient(settings());
    await client.accessToken();
    const before = daraja.requestsTo('/mpesa/stkpush/v1/processrequest').length;
    daraja.failNext('/mpesa/stkpush/v1/processrequest', { kind: 'status', status: 503 }, 1);
    const e = await refusal(push(client, '0711000000'));
    expect([e.kind, e.retryable, e.status]).toEqual(['unavailable', true, 503]);
    expect(daraja.requestsTo('/mpesa/stkpush/v1/processrequest').length - before).toBe(1);
  });

  it('a hanging Daraja is a timeout, typed retryable', async () => {
    const client = new DarajaClient(settings({ http: { timeoutMs: 200, attempts: 2, backoffMs: 10 } }));
    daraja.failNext('/mpesa/stkpushquery/v1/query', { kind: 'hang' }, 2);
    const e = await refusal(client.stkQuery('ws_CO_any'));
    expect([e.kind, e.retryable, e.message]).toEqual(['unavailable', true, 'The mpesa API timed out.']);
  });

  it('a reset connection is unavailable', async () => {
    daraja.failNext('/oauth/v1/generate', { kind: 'reset' }, 3);
    const e = await refusal(new DarajaClient(settings()).accessToken());
    expect(e.kind).toBe('unavailable');
  });
});

describe('reversal, B2C and Transaction Status', () => {
  async function paid(client: DarajaClient, phone: string) {
    const { checkoutRequestId } = await push(client, phone);
    await until(() => Boolean(daraja.stk.get(checkoutRequestId)?.result));
    return daraja.stk.get(checkoutRequestId)!;
  }

  it('reverses a payment; the result comes to ResultURL and reads as succeeded', async () => {
    const client = new DarajaClient(settings());
    const p = await paid(client, '0711000000');
    const ack = await client.reversal({ receipt: p.receipt!, amountKes: 1500, resultUrl: `${sink.url}/rev/ok`, timeoutUrl: `${sink.url}/rev/timeout`, remarks: 'Refund of K7Q2XW9B' });
    expect(ack.conversationId).toMatch(/^AG_/);
    const req = daraja.requestsTo('/mpesa/reversal/v1/request').at(-1)!.json as Record<string, unknown>;
    expect(req).toMatchObject({ Initiator: 'testapi', CommandID: 'TransactionReversal', TransactionID: p.receipt, Amount: 1500, ReceiverParty: '174379', RecieverIdentifierType: '11' });
    expect(String(req.SecurityCredential)).not.toContain(fake.DARAJA_INITIATOR_PASSWORD);
    await until(() => sink.to('/rev/ok').length === 1);
    expect(parseDarajaResult(sink.to('/rev/ok')[0]!.json)).toMatchObject({ succeeded: true, conversationId: ack.conversationId, parameters: { OriginalTransactionID: p.receipt, Amount: '1500' } });
  });

  it('a wrong initiator password fails in the result (2001); refunds of +254711000005 fail; +254711000008 waits', async () => {
    const wrong = new DarajaClient(settings({ initiatorPassword: 'not-it' }));
    const p = await paid(wrong, '0711000000');
    await wrong.reversal({ receipt: p.receipt!, amountKes: 1500, resultUrl: `${sink.url}/rev/wrong`, timeoutUrl: `${sink.url}/t`, remarks: 'r' });
    const client = new DarajaClient(settings());
    const poor = await paid(client, '+254711000005');
    await client.reversal({ receipt: poor.receipt!, amountKes: 1500, resultUrl: `${sink.url}/rev/poor`, timeoutUrl: `${sink.url}/t`, remarks: 'r' });
    const slow = await paid(client, '+254711000008');
    await client.reversal({ receipt: slow.receipt!, amountKes: 1500, resultUrl: `${sink.url}/rev/slow`, timeoutUrl: `${sink.url}/t`, remarks: 'r' });
    await until(() => sink.to('/rev/wrong').length === 1 && sink.to('/rev/poor').length === 1 && daraja.heldCount === 1);
    expect(parseDarajaResult(sink.to('/rev/wrong')[0]!.json)).toMatchObject({ succeeded: false, resultCode: '2001' });
    expect(parseDarajaResult(sink.to('/rev/poor')[0]!.json)).toMatchObject({ succeeded: false, resultCode: '1' });
    expect(sink.to('/rev/slow')).toHaveLength(0);
    await daraja.release();
    expect(parseDarajaResult(sink.to('/rev/slow')[0]!.json)).toMatchObject({ succeeded: true });
  });

  it('without the initiator or the certificate, a reversal is not_configured and nothing is sent', async () => {
    const before = daraja.requests.length;
    const a = await refusal(new DarajaClient(settings({ securityCertificate: null })).reversal({ receipt: 'X', amountKes: 1, resultUrl: 'http://x', timeoutUrl: 'http://x', remarks: 'r' }));
    const b = await refusal(new DarajaClient(settings({ initiatorName: null })).reversal({ receipt: 'X', amountKes: 1, resultUrl: 'http://x', timeoutUrl: 'http://x', remarks: 'r' }));
    expect([a.kind, b.kind, daraja.requests.length]).toEqual(['not_configured', 'not_configured', before]);
  });

  it('pays out by B2C v3 and asks a Transaction Status by receipt or by CheckoutRequestID', async () => {
    const client = new DarajaClient(settings());
    const b2c = await client.b2cPayment({ originatorConversationId: 'po_123', phone: '0711000000', amountKes: 500, resultUrl: `${sink.url}/b2c`, timeoutUrl: `${sink.url}/t`, remarks: 'Payout' });
    expect(b2c.originatorConversationId).toBe('po_123');
    expect(daraja.requestsTo('/mpesa/b2c/v3/paymentrequest').at(-1)!.json).toMatchObject({ InitiatorName: 'testapi', CommandID: 'BusinessPayment', PartyA: fake.DARAJA_B2C_SHORTCODE, PartyB: '254711000000', Amount: 500 });
    const p = await paid(client, '0711000000');
    await client.transactionStatus({ originalConversationId: p.checkoutRequestId, resultUrl: `${sink.url}/status`, timeoutUrl: `${sink.url}/t`, remarks: 'Receipt' });
    await until(() => sink.to('/b2c').length === 1 && sink.to('/status').length === 1);
    expect(parseDarajaResult(sink.to('/b2c')[0]!.json)).toMatchObject({ succeeded: true, originatorConversationId: 'po_123', parameters: { TransactionAmount: '500' } });
    expect(parseDarajaResult(sink.to('/status')[0]!.json)).toMatchObject({ succeeded: true, parameters: { ReceiptNo: p.receipt, TransactionStatus: 'Completed' } });
  });

  it('reads nothing into bodies that are not Daraja results', () => {
    expect(parseStkCallback({ Body: {} })).toBeNull();
    expect(parseStkCallback('x')).toBeNull();
    expect(parseDarajaResult({ Result: { ResultDesc: 'no code' } })).toBeNull();
  });
});
