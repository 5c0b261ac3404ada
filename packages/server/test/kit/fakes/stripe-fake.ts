import { createHmac, randomBytes } from 'node:crypto';
import qs from 'qs';
import { FakeProvider, type FakeAnswer, type RecordedRequest } from './fake-provider';
import { hostedPage, payerOutcome } from './hosted-page';
import * as o from './stripe-fake-objects';

export * from './stripe-fake-objects';

type Params = Record<string, unknown>;

/** Stripe's test card `4000002760003184`: kept, but every charge asks for authentication (`authentication_required`). */
export const AUTHENTICATION_REQUIRED_CARD = '4000002760003184';

/**
 * A local Stripe API as the official SDK calls it (form-encoded bodies, bearer key, `Idempotency-Key`):
 * Checkout Sessions create/retrieve/expire with a hosted page at `url`, off-session PaymentIntents, refunds,
 * the account, and events signed `Stripe-Signature: t=…,v1=…` to `webhookUrl`.
 */
export class StripeFake extends FakeProvider {
  readonly keys = new Set([o.STRIPE_SECRET_KEY, o.STRIPE_LIVE_SECRET_KEY]);
  readonly state = new o.StripeFakeState();
  webhookUrl: string | null = null;
  webhookSecret = o.STRIPE_WEBHOOK_SECRET;
  refuseCredentials = false;
  private readonly idempotent = new Map<string, FakeAnswer>();

  constructor() {
    super();
    Object.assign(this.controls, {
      'refuse-credentials': (b: Params) => void (this.refuseCredentials = b.on !== false),
      'webhook-url': (b: Params) => void (this.webhookUrl = typeof b.url === 'string' ? b.url : null),
      complete: (b: Params) => this.complete(String(b.session), String(b.payer ?? '4242424242424242')),
      'settle-refund': (b: Params) => this.settleRefund(String(b.id), b.outcome === 'failed' ? 'failed' : 'succeeded'),
    });
  }

  protected route(req: RecordedRequest): FakeAnswer {
    const page = /^\/c\/pay\/(cs_[A-Za-z0-9_]+)$/.exec(req.path);
    if (page) return this.page(req, page[1]!);
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (this.refuseCredentials || !this.keys.has(key)) {
      return o.stripeError(401, 'invalid_request_error', `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`);
    }
    const params = (req.method === 'GET' ? qs.parse(req.query.toString()) : qs.parse(req.raw)) as Params;
    const idem = req.method === 'POST' ? req.headers['idempotency-key'] : undefined;
    if (typeof idem === 'string' && this.idempotent.has(`${req.path}:${idem}`)) return this.idempotent.get(`${req.path}:${idem}`)!;
    const answer = this.dispatch(req.method, req.path, params);
    if (typeof idem === 'string' && answer.status < 500) this.idempotent.set(`${req.path}:${idem}`, answer);
    return answer;
  }

  private dispatch(method: string, path: string, p: Params): FakeAnswer {
    const s = this.state;
    if (method === 'GET' && path === '/v1/account') return { status: 200, body: o.ACCOUNT };
    if (method === 'POST' && path === '/v1/checkout/sessions') return this.createSession(p);
    let m = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (m) {
      const session = s.sessions.get(m[1]!);
      if (!session) return o.missing('checkout.session', m[1]!);
      if (method === 'GET' && !m[2]) return { status: 200, body: s.sessionView(session, o.expands(p, 'payment_intent')) };
      if (method === 'POST' && m[2]) {
        if (session.status !== 'open') return o.stripeError(400, 'invalid_request_error', `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of ${session.status}.`);
        session.status = 'expired';
        this.event('checkout.session.expired', s.sessionView(session, false));
        return { status: 200, body: s.sessionView(session, false) };
      }
    }
    if (method === 'POST' && path === '/v1/payment_intents') return this.offSession(p);
    m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && m) {
      const pi = s.intents.get(m[1]!);
      return pi ? { status: 200, body: s.intentView(pi) } : o.missing('payment_intent', m[1]!);
    }
    if (method === 'POST' && path === '/v1/refunds') return this.refund(p);
    m = /^\/v1\/refunds\/([^/]+)$/.exec(path);
    if (method === 'GET' && m) {
      const r = s.refunds.get(m[1]!);
      return r ? { status: 200, body: s.refundView(r) } : o.missing('refund', m[1]!);
    }
    return o.stripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }

  private createSession(p: Params): FakeAnswer {
    if (p.mode !== 'payment') return o.stripeError(400, 'invalid_request_error', 'Invalid mode: must be payment here', 'mode');
    const item = (p.line_items as Array<{ quantity?: string; price_data?: { currency?: string; unit_amount?: string; product_data?: { name?: string } } }> | undefined)?.[0];
    const amount = Number(item?.price_data?.unit_amount) * Number(item?.quantity ?? 1);
    if (!item?.price_data?.currency || !Number.isInteger(amount) || amount < 1) return o.stripeError(400, 'invalid_request_error', 'Missing required param: line_items[0][price_data].', 'line_items');
    if (typeof p.success_url !== 'string') return o.stripeError(400, 'invalid_request_error', 'Missing required param: success_url.', 'success_url');
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = p.expires_at === undefined ? now + 24 * 3600 : Number(p.expires_at);
    if (expiresAt < now + 30 * 60 || expiresAt > now + 24 * 3600) {
      return o.stripeError(400, 'invalid_request_error', 'The `expires_at` timestamp must be at least 30 minutes and at most 24 hours from Checkout Session creation.', 'expires_at');
    }
    const pid = (p.payment_intent_data ?? {}) as Params;
    const session = this.state.addSession({
      amount,
      currency: item.price_data.currency,
      clientReferenceId: typeof p.client_reference_id === 'string' ? p.client_reference_id : null,
      customerEmail: typeof p.customer_email === 'string' ? p.customer_email : null,
      successUrl: p.success_url,
      cancelUrl: typeof p.cancel_url === 'string' ? p.cancel_url : null,
      expiresAt,
      metadata: (p.metadata ?? {}) as Record<string, string>,
      intentMetadata: (pid.metadata ?? {}) as Record<string, string>,
      saveCard: pid.setup_future_usage === 'off_session',
      url: (id) => `${this.url}/c/pay/${id}`,
    });
    return { status: 200, body: this.state.sessionView(session, false) };
  }

  private page(req: RecordedRequest, id: string): FakeAnswer {
    const session = this.state.sessions.get(id);
    if (!session) return { status: 404, body: 'No such session', type: 'text/html' };
    if (req.method === 'GET') return hostedPage({ title: 'Stripe Checkout (fake)', amount: session.amount, currency: session.currency.toUpperCase(), card: true, mobileMoney: false });
    const form = new URLSearchParams(req.raw);
    if (form.get('action') === 'cancel') return { status: 303, headers: { location: session.cancelUrl ?? session.successUrl }, body: '' };
    this.complete(id, form.get('payer') ?? '');
    if (session.status !== 'complete') return { status: 402, body: '<p id="error">Your card was declined.</p>', type: 'text/html' };
    return { status: 303, headers: { location: session.successUrl.replace('{CHECKOUT_SESSION_ID}', id) }, body: '' };
  }

  /** A buyer pays on the hosted page; a declined card leaves the session open, as Checkout does. */
  complete(id: string, card: string): o.FakeSession {
    const session = this.state.sessions.get(id);
    if (!session) throw new Error(`no session ${id}`);
    if (session.status !== 'open') return session;
    const outcome = payerOutcome(card);
    const pi = this.state.intentFor(session, card);
    if (outcome.status !== 'succeeded') {
      pi.status = 'requires_payment_method';
      pi.lastError = { code: 'card_declined', decline_code: outcome.status === 'failed' && outcome.code === 'insufficient_funds' ? 'insufficient_funds' : 'generic_decline', message: 'Your card was declined.' };
      return session;
    }
    pi.status = 'succeeded';
    session.status = 'complete';
    session.paymentStatus = 'paid';
    this.event('checkout.session.completed', this.state.sessionView(session, false));
    return session;
  }

  private offSession(p: Params): FakeAnswer {
    const pm = this.state.methods.get(String(p.payment_method ?? ''));
    if (!pm || pm.customer !== p.customer) return o.stripeError(400, 'invalid_request_error', `No such PaymentMethod: '${String(p.payment_method)}'`, 'payment_method');
    if (p.confirm !== 'true' || p.off_session !== 'true') return o.stripeError(400, 'invalid_request_error', 'This fake charges saved cards only with confirm=true and off_session=true.');
    const pi = this.state.addIntent({ amount: Number(p.amount), currency: String(p.currency), customer: pm.customer, paymentMethod: pm.id, card: pm.card, metadata: (p.metadata ?? {}) as Record<string, string> });
    const outcome = payerOutcome(pm.card);
    // Stripe's test card that always asks its holder to authenticate: off-session, the charge cannot go through.
    if (pm.card === AUTHENTICATION_REQUIRED_CARD) {
      const message = 'Your card was declined. This transaction requires authentication.';
      pi.status = 'requires_payment_method';
      pi.lastError = { code: 'authentication_required', decline_code: 'authentication_required', message };
      const error = { type: 'card_error', code: 'authentication_required', decline_code: 'authentication_required', message, payment_intent: this.state.intentView(pi) };
      return { status: 402, body: { error } };
    }
    // The design's renewal card: kept for renewal, every renewal charge declined.
    if (pm.card === '4000000000000341' || outcome.status !== 'succeeded') {
      const decline = outcome.status === 'failed' && outcome.code === 'insufficient_funds' ? 'insufficient_funds' : 'generic_decline';
      pi.status = 'requires_payment_method';
      pi.lastError = { code: 'card_declined', decline_code: decline, message: 'Your card was declined.' };
      return { status: 402, body: { error: { type: 'card_error', code: 'card_declined', decline_code: decline, message: 'Your card was declined.', payment_intent: this.state.intentView(pi) } } };
    }
    pi.status = 'succeeded';
    return { status: 200, body: this.state.intentView(pi) };
  }

  private refund(p: Params): FakeAnswer {
    const pi = this.state.intents.get(String(p.payment_intent ?? ''));
    if (!pi) return o.stripeError(400, 'invalid_request_error', `No such payment_intent: '${String(p.payment_intent)}'`, 'payment_intent', 'resource_missing');
    if (pi.status !== 'succeeded') return o.stripeError(400, 'invalid_request_error', 'This PaymentIntent does not have a successful charge to refund.', 'payment_intent');
    const amount = p.amount === undefined ? pi.amount - pi.refunded : Number(p.amount);
    if (!Number.isInteger(amount) || amount < 1 || amount > pi.amount - pi.refunded) {
      return o.stripeError(400, 'invalid_request_error', `Refund amount (${amount}) is greater than unrefunded amount on charge (${pi.amount - pi.refunded})`, 'amount', 'charge_already_refunded');
    }
    pi.refunded += amount;
    const r = this.state.addRefund(pi, amount, (p.metadata ?? {}) as Record<string, string>);
    this.event('refund.created', this.state.refundView(r));
    const outcome = payerOutcome(pi.card);
    if (!outcome.refundHeld) this.later(this.callbackDelayMs, () => this.settleRefund(r.id, outcome.refundFails ? 'failed' : 'succeeded'));
    return { status: 200, body: this.state.refundView(r) };
  }

  /** Settles a pending refund (a held one, or a test deciding), with `refund.updated` (and `refund.failed`). */
  settleRefund(id: string, status: 'succeeded' | 'failed'): void {
    const r = this.state.refunds.get(id);
    if (!r || r.status !== 'pending') return;
    r.status = status;
    if (status === 'failed') {
      r.failureReason = 'declined';
      r.intent.refunded -= r.amount;
      this.event('refund.failed', this.state.refundView(r));
    }
    this.event('refund.updated', this.state.refundView(r));
  }

  /** Sends an event signed as Stripe signs it (or holds it). */
  event(type: string, object: unknown): void {
    if (!this.webhookUrl) return;
    const body = JSON.stringify({ id: `evt_${randomBytes(12).toString('hex')}`, object: 'event', api_version: o.API_VERSION, created: Math.floor(Date.now() / 1000), data: { object }, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type });
    this.callback(this.webhookUrl, body, { 'stripe-signature': stripeSignatureHeader(body, this.webhookSecret) });
  }
}

/** `Stripe-Signature` for a body: `t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function stripeSignatureHeader(body: string, secret: string, at = Math.floor(Date.now() / 1000)): string {
  return `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${body}`).digest('hex')}`;
}
