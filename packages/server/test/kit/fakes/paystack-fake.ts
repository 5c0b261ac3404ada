import { createHmac, randomBytes } from 'node:crypto';
import { FakeProvider, type FakeAnswer, type RecordedRequest } from './fake-provider';
import { hostedPage, payerOutcome, type PayerOutcome } from './hosted-page';

export const PAYSTACK_SECRET_KEY = 'sk_test_fake0paystack0secret0key0123456789';
export const PAYSTACK_LIVE_SECRET_KEY = 'sk_live_fake0paystack0secret0key0123456789';

export interface FakePaystackTransaction {
  id: number;
  reference: string;
  accessCode: string;
  email: string;
  amount: number;
  currency: string;
  status: 'abandoned' | 'ongoing' | 'success' | 'failed';
  gatewayResponse: string | null;
  callbackUrl: string | null;
  channels: string[];
  metadata: unknown;
  paidAt: string | null;
  payer: string | null;
  authorizationCode: string | null;
  refunded: number;
}

export interface FakePaystackRefund {
  id: number;
  transaction: FakePaystackTransaction;
  amount: number;
  status: 'pending' | 'processed' | 'failed';
}

const CURRENCIES = ['NGN', 'GHS', 'ZAR', 'KES', 'USD'];
const fail = (status: number, message: string): FakeAnswer => ({ status, body: { status: false, message } });
const ok = (message: string, data: unknown): FakeAnswer => ({ status: 200, body: { status: true, message, data } });
let sequence = Math.floor(Math.random() * 1e9);

/**
 * A local Paystack: initialize (with a hosted page at `authorization_url` that completes by the magic cards
 * and phones), verify, charge_authorization, refunds, balance, and webhooks signed `x-paystack-signature`
 * to `webhookUrl`. `complete()` stands for a buyer on the hosted page.
 */
export class PaystackFake extends FakeProvider {
  readonly keys = new Set([PAYSTACK_SECRET_KEY, PAYSTACK_LIVE_SECRET_KEY]);
  readonly transactions = new Map<string, FakePaystackTransaction>();
  readonly refunds = new Map<number, FakePaystackRefund>();
  /** Where signed webhooks go (the dashboard's webhook URL); unset: none are sent. */
  webhookUrl: string | null = null;
  /** The key webhooks are signed with (Paystack signs with the account's secret key). */
  signingKey = PAYSTACK_SECRET_KEY;
  refuseCredentials = false;

  constructor() {
    super();
    Object.assign(this.controls, {
      'refuse-credentials': (b: Record<string, unknown>) => void (this.refuseCredentials = b.on !== false),
      'webhook-url': (b: Record<string, unknown>) => void (this.webhookUrl = typeof b.url === 'string' ? b.url : null),
      complete: (b: Record<string, unknown>) => this.complete(String(b.reference), String(b.payer ?? '4242424242424242')),
      'settle-refund': (b: Record<string, unknown>) => this.settleRefund(Number(b.id), b.outcome === 'failed' ? 'failed' : 'processed'),
    });
  }

  protected route(req: RecordedRequest): FakeAnswer {
    const page = /^\/checkout\/([a-z0-9]+)$/.exec(req.path);
    if (page) return this.page(req, page[1]!);
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (this.refuseCredentials || !this.keys.has(key)) return fail(401, 'Invalid key');
    const body = (req.json ?? {}) as Record<string, unknown>;
    if (req.method === 'POST' && req.path === '/transaction/initialize') return this.initialize(body);
    const verify = /^\/transaction\/verify\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && verify) {
      const t = this.transactions.get(decodeURIComponent(verify[1]!));
      return t ? ok('Verification successful', this.view(t)) : fail(400, 'Transaction reference not found');
    }
    if (req.method === 'POST' && req.path === '/transaction/charge_authorization') return this.chargeAuthorization(body);
    if (req.method === 'POST' && req.path === '/refund') return this.refund(body);
    const refund = /^\/refund\/(\d+)$/.exec(req.path);
    if (req.method === 'GET' && refund) {
      const r = this.refunds.get(Number(refund[1]));
      return r ? ok('Refund retrieved', this.refundView(r)) : fail(404, 'Refund not found');
    }
    if (req.method === 'GET' && req.path === '/balance') return ok('Balances retrieved', [{ currency: 'NGN', balance: 1_700_000 }, { currency: 'KES', balance: 250_000 }]);
    return fail(404, 'Not found');
  }

  private initialize(body: Record<string, unknown>): FakeAnswer {
    const reference = String(body.reference ?? `T${++sequence}`);
    if (!/^[A-Za-z0-9.=-]+$/.test(reference)) return fail(400, 'Invalid reference. Only -, ., = and alphanumeric characters allowed');
    if (this.transactions.has(reference)) return fail(400, 'Duplicate Transaction Reference');
    if (!/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(String(body.email ?? ''))) return fail(400, 'Invalid Email Address Passed');
    const amount = Number(body.amount);
    if (!Number.isInteger(amount) || amount < 1) return fail(400, 'Invalid Amount Sent');
    const currency = String(body.currency ?? 'NGN');
    if (!CURRENCIES.includes(currency)) return fail(403, 'Currency not supported by merchant');
    const t: FakePaystackTransaction = {
      id: ++sequence,
      reference,
      accessCode: randomBytes(8).toString('hex'),
      email: String(body.email),
      amount,
      currency,
      status: 'abandoned',
      gatewayResponse: null,
      callbackUrl: typeof body.callback_url === 'string' ? body.callback_url : null,
      channels: Array.isArray(body.channels) ? body.channels.map(String) : ['card', 'mobile_money'],
      metadata: body.metadata ?? null,
      paidAt: null,
      payer: null,
      authorizationCode: null,
      refunded: 0,
    };
    this.transactions.set(reference, t);
    return ok('Authorization URL created', { authorization_url: `${this.url}/checkout/${t.accessCode}`, access_code: t.accessCode, reference });
  }

  /** The hosted page: a form for a card or a phone; its POST is `complete()`, then the redirect to `callback_url`. */
  private page(req: RecordedRequest, accessCode: string): FakeAnswer {
    const t = [...this.transactions.values()].find((x) => x.accessCode === accessCode);
    if (!t) return { status: 404, body: 'No such checkout', type: 'text/html' };
    if (req.method === 'GET') return hostedPage({ title: 'Paystack (fake)', amount: t.amount, currency: t.currency, mobileMoney: t.channels.includes('mobile_money'), card: t.channels.includes('card') });
    const form = new URLSearchParams(req.raw);
    if (form.get('action') !== 'cancel') this.complete(t.reference, form.get('payer') ?? '');
    const back = t.callbackUrl ? new URL(t.callbackUrl) : null;
    back?.searchParams.set('trxref', t.reference);
    back?.searchParams.set('reference', t.reference);
    return back ? { status: 302, headers: { location: back.toString() }, body: '' } : { status: 200, body: 'Done', type: 'text/html' };
  }

  /** A buyer pays on the hosted page with a card number or a phone (the magic values decide). */
  complete(reference: string, payer: string): FakePaystackTransaction {
    const t = this.transactions.get(reference);
    if (!t) throw new Error(`no transaction ${reference}`);
    if (t.status === 'success' || t.status === 'failed') return t;
    this.settle(t, payer, payerOutcome(payer));
    return t;
  }

  private settle(t: FakePaystackTransaction, payer: string, outcome: PayerOutcome): void {
    t.payer = payer;
    if (outcome.status === 'never') return void (t.status = 'ongoing');
    t.status = outcome.status === 'succeeded' ? 'success' : 'failed';
    t.gatewayResponse = outcome.status === 'succeeded' ? 'Successful' : outcome.code === 'insufficient_funds' ? 'Insufficient Funds' : 'Declined';
    if (t.status === 'success') {
      t.paidAt = new Date().toISOString();
      if (!payer.startsWith('+')) t.authorizationCode ??= `AUTH_${randomBytes(5).toString('hex')}`;
      this.webhook('charge.success', this.view(t));
    }
  }

  private chargeAuthorization(body: Record<string, unknown>): FakeAnswer {
    const saved = [...this.transactions.values()].find((t) => t.authorizationCode && t.authorizationCode === body.authorization_code);
    if (!saved) return fail(400, 'Invalid Authorization code');
    // An authorization charges only the customer (email) it was issued to.
    if (String(body.email ?? '') !== saved.email) return fail(400, 'Authorization code is not valid for this customer');
    const init = this.initialize({ ...body, reference: body.reference });
    if (init.status !== 200) return init;
    const t = this.transactions.get(String((init.body as { data: { reference: string } }).data.reference))!;
    t.authorizationCode = saved.authorizationCode;
    // The design's renewal card: kept for renewal, every renewal charge declined.
    this.settle(t, saved.payer ?? '', saved.payer === '4000000000000341' ? { status: 'failed', code: 'declined' } : { status: 'succeeded' });
    return ok('Charge attempted', this.view(t));
  }

  private refund(body: Record<string, unknown>): FakeAnswer {
    const key = String(body.transaction ?? '');
    const t = this.transactions.get(key) ?? [...this.transactions.values()].find((x) => String(x.id) === key);
    if (!t) return fail(404, 'Transaction not found');
    if (t.status !== 'success') return fail(400, 'Cannot refund a transaction that was not successful');
    const amount = body.amount === undefined ? t.amount - t.refunded : Number(body.amount);
    if (!Number.isInteger(amount) || amount < 1 || amount > t.amount - t.refunded) return fail(400, 'Refund amount cannot be more than the unrefunded transaction amount');
    t.refunded += amount;
    const r: FakePaystackRefund = { id: ++sequence, transaction: t, amount, status: 'pending' };
    this.refunds.set(r.id, r);
    const outcome = payerOutcome(t.payer ?? '');
    if (!outcome.refundHeld) this.later(this.callbackDelayMs, () => this.settleRefund(r.id, outcome.refundFails ? 'failed' : 'processed'));
    return ok('Refund has been queued for processing', { ...this.refundView(r), transaction: this.view(t) });
  }

  /** Settles a refund (a held one, or a test deciding), with its webhook. */
  settleRefund(id: number, status: 'processed' | 'failed'): void {
    const r = this.refunds.get(id);
    if (!r || r.status !== 'pending') return;
    r.status = status;
    if (status === 'failed') r.transaction.refunded -= r.amount;
    this.webhook(`refund.${status}`, { status, transaction_reference: r.transaction.reference, refund_reference: status === 'processed' ? `RFN${r.id}` : null, amount: String(r.amount), currency: r.transaction.currency, processor: 'fake', integration: 412829, domain: 'test', id: String(r.id) });
  }

  view(t: FakePaystackTransaction) {
    const auth = t.authorizationCode ? { authorization_code: t.authorizationCode, bin: t.payer?.slice(0, 6) ?? null, last4: t.payer?.slice(-4) ?? null, channel: 'card', reusable: true, brand: 'visa' } : {};
    return { id: t.id, domain: 'test', status: t.status, reference: t.reference, amount: t.amount, currency: t.currency, gateway_response: t.gatewayResponse, paid_at: t.paidAt, channel: t.payer?.startsWith('+') ? 'mobile_money' : 'card', metadata: t.metadata, authorization: auth, customer: { email: t.email } };
  }

  private refundView(r: FakePaystackRefund) {
    return { id: r.id, integration: 412829, transaction: r.transaction.id, domain: 'test', amount: r.amount, currency: r.transaction.currency, status: r.status, refunded_at: r.status === 'processed' ? new Date().toISOString() : null };
  }

  /** Signs and sends an event to `webhookUrl` (or holds it). */
  webhook(event: string, data: unknown): void {
    if (!this.webhookUrl) return;
    const body = JSON.stringify({ event, data });
    this.callback(this.webhookUrl, body, { 'x-paystack-signature': createHmac('sha512', this.signingKey).update(body).digest('hex') });
  }
}
