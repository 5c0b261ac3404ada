import { DARAJA_PRODUCTION_URL, DARAJA_SANDBOX_URL } from '../../../../boot/payments-config';
import { ProviderError, type InboundNotification, type InboundRequest, type InboundResult, type PaymentProvider, type PayoutState, type ProviderCredentials, type ProviderDefinition, type RefundState } from '../../provider';
import { call, formError, secretOf, toProviderError, type AdapterEnvironment } from '../adapter-kit';
import { isProviderError } from '../provider-errors';
import { parseDarajaResult, parseStkCallback, type DarajaResult } from './daraja-callbacks';
import { DarajaClient } from './daraja-client';
import { normalizeMpesaPhone } from './mpesa-phone';

/** How long the page shows "check your phone" for one prompt (Daraja's prompt lasts about a minute). */
const PROMPT_SECONDS = 120;

/** Which field a credential refusal is about: OAuth refuses the consumer pair, STK push the passkey. */
const paramOf = (err: unknown) => (err instanceof Error && /consumer key/.test(err.message) ? 'consumer_secret' : 'passkey');

export function mpesaClient(credentials: ProviderCredentials, env: AdapterEnvironment): DarajaClient {
  const { account, secrets } = credentials;
  return new DarajaClient({
    baseUrl: env.apiUrl,
    consumerKey: secretOf(secrets, 'consumer_key'),
    consumerSecret: secretOf(secrets, 'consumer_secret'),
    shortcode: account.shortcode ?? '',
    shortcodeType: account.shortcode_type === 'till' ? 'till' : 'paybill',
    tillNumber: account.till_number ?? null,
    passkey: secretOf(secrets, 'passkey'),
    initiatorName: account.initiator_name ?? null,
    initiatorPassword: secrets.initiator_password ?? null,
    b2cShortcode: account.b2c_shortcode ?? null,
    securityCertificate: env.securityCertificate ?? null,
    http: env.http,
    now: env.now,
  });
}

/**
 * A B2C payment's result, or a Transaction Status result asked for a payout, at the payout's own address.
 * `reference` is the result's `OriginatorConversationID`: a B2C result echoes the payout's id, a status query's
 * result has Daraja's own, so only the first may fail the payout. A `Completed` status carries the receipt.
 */
function payoutNotification(r: DarajaResult, providerEventId: string): InboundNotification {
  const reference = r.originatorConversationId || null;
  if (r.parameters.TransactionStatus !== undefined || r.parameters.ReceiptNo !== undefined) {
    const receipt = r.parameters.ReceiptNo ?? r.transactionId;
    const hint: PayoutState | null = r.succeeded && r.parameters.TransactionStatus === 'Completed' && receipt ? { status: 'paid', reference: receipt } : null;
    return { providerEventId, kind: 'payout', reference, hint, providerReceipt: hint ? receipt : null };
  }
  const receipt = r.parameters.TransactionReceipt ?? r.transactionId;
  const hint: PayoutState = r.succeeded && receipt
    ? { status: 'paid', reference: receipt }
    : { status: 'failed', code: r.resultCode === '1' ? 'insufficient_funds' : 'provider_error', message: r.resultDesc || `M-Pesa result ${r.resultCode}` };
  return { providerEventId, kind: 'payout', reference, hint, providerReceipt: hint.status === 'paid' ? receipt : null };
}

/** A Daraja result posted to a result address: a payout's (by its token, or a B2C receipt), else a reversal's. */
function resultNotification(body: unknown, subject: InboundRequest['subject']): InboundResult {
  const r = parseDarajaResult(body);
  if (!r) return { refused: 'malformed', message: 'The body is neither an STK callback nor a Daraja result.' };
  const providerEventId = `result:${r.conversationId || r.originatorConversationId}:${r.resultCode}`;
  if (subject === 'payout' || r.parameters.TransactionReceipt) return payoutNotification(r, providerEventId);
  // A Transaction Status result: only reversals are asked about, at their own tokened address. `Completed`
  // means the reversal went through; anything else (not found yet, the query refused) decides nothing.
  if (r.parameters.TransactionStatus !== undefined || r.parameters.ReceiptNo !== undefined) {
    const hint: RefundState | null = r.succeeded && r.parameters.TransactionStatus === 'Completed' ? { status: 'succeeded' } : null;
    return { providerEventId, kind: 'refund', reference: null, hint, providerReceipt: null };
  }
  const hint: RefundState = r.succeeded
    ? { status: 'succeeded' }
    : { status: 'failed', failureCode: r.resultCode === '1' ? 'insufficient_balance' : 'provider_error', failureMessage: r.resultDesc || null };
  // The originator's id is what Transaction Status finds a reversal by, so it is the refund's reference.
  return { providerEventId, kind: 'refund', reference: r.originatorConversationId || r.conversationId || null, hint, providerReceipt: r.transactionId };
}

function mpesaProvider(credentials: ProviderCredentials, env: AdapterEnvironment): PaymentProvider {
  const client = mpesaClient(credentials, env);
  return {
    type: 'mpesa',
    async startPayment(input) {
      if (input.method !== 'mobile_money' || !mpesaDefinition.accepts(input.amount, input.currency)) {
        throw new ProviderError('rejected', 'M-Pesa takes mobile money in KES, in whole shillings.');
      }
      const phone = normalizeMpesaPhone(input.phone ?? '');
      if (!phone) throw new ProviderError('rejected', 'The phone is not a Kenyan mobile number.', { param: 'phone', reason: 'malformed' });
      try {
        const accepted = await client.stkPush({ phone, amountKes: input.amount / 100, accountReference: input.orderCode, description: input.description, callbackUrl: input.callbackUrl });
        const expires = new Date(env.now().getTime() + PROMPT_SECONDS * 1000).toISOString();
        return { providerReference: accepted.checkoutRequestId, state: { status: 'pending' }, nextAction: { type: 'confirm_on_phone', phone_hint: phone.slice(-4), expires_at: expires } };
      } catch (err) {
        // Daraja refusing this prompt (a busy phone, a number it does not serve) fails the attempt, not the call.
        if (isProviderError(err, 'rejected')) {
          return { providerReference: null, state: { status: 'failed', failureCode: err.providerCode === 'subscriber_busy' ? 'subscriber_busy' : 'provider_error', failureMessage: err.message }, nextAction: null };
        }
        throw toProviderError(err, paramOf(err));
      }
    },

    async queryPayment(attempt) {
      if (!attempt.providerReference) throw new ProviderError('rejected', 'The attempt never reached Daraja.');
      const r = await call('consumer_secret', () => client.stkQuery(attempt.providerReference!));
      if (r.state === 'pending') return { status: 'pending' };
      if (r.outcome.status === 'failed') return { status: 'failed', failureCode: r.outcome.failureCode, failureMessage: r.resultDesc || null };
      // STK Query carries neither amount nor receipt: the attempt's own amount, and the receipt already known, if any.
      return { status: 'succeeded', amount: attempt.amount, currency: attempt.currency, providerReceipt: attempt.providerReceipt };
    },

    async cancelPayment() {
      // A prompt cannot be withdrawn; reconciliation reads its end.
    },

    parseNotification(request) {
      let body: unknown;
      try {
        body = JSON.parse(request.rawBody.toString('utf8'));
      } catch {
        return { refused: 'malformed', message: 'The body is not JSON.' };
      }
      const cb = parseStkCallback(body);
      if (!cb) return resultNotification(body, request.subject ?? null);
      const hint =
        cb.outcome.status === 'succeeded'
          ? { status: 'succeeded' as const, amount: Math.round((cb.amountKes ?? 0) * 100), currency: 'KES', providerReceipt: cb.receipt }
          : { status: 'failed' as const, failureCode: cb.outcome.failureCode, failureMessage: cb.resultDesc || null };
      return { providerEventId: `stk:${cb.checkoutRequestId}:${cb.resultCode}`, kind: 'payment', reference: cb.checkoutRequestId, hint, providerReceipt: cb.receipt };
    },

    async refund(input) {
      if (input.amount % 100 !== 0) throw new ProviderError('rejected', 'An M-Pesa reversal is in whole shillings.');
      if (!input.payment.providerReceipt) throw new ProviderError('rejected', 'The payment has no M-Pesa receipt yet; a reversal needs one.');
      try {
        const ack = await client.reversal({ receipt: input.payment.providerReceipt, amountKes: input.amount / 100, resultUrl: input.callbackUrl, timeoutUrl: input.callbackUrl, remarks: `Refund ${input.refundId}` });
        return { providerReference: ack.originatorConversationId || ack.conversationId, state: { status: 'pending' } };
      } catch (err) {
        if (isProviderError(err, 'not_configured')) return { providerReference: null, state: { status: 'failed', failureCode: 'refunds_unavailable', failureMessage: err.message } };
        if (isProviderError(err, 'rejected')) return { providerReference: null, state: { status: 'failed', failureCode: 'provider_error', failureMessage: err.message } };
        throw toProviderError(err, 'consumer_secret');
      }
    },

    async queryRefund(refund) {
      // A reversal's result comes to its result address; when it is overdue, Transaction Status is asked to
      // send it there again (asynchronously: this call itself never knows the answer).
      if (!refund.callbackUrl || !refund.providerReference) return null;
      const url = refund.callbackUrl;
      await call('consumer_secret', () => client.transactionStatus({ originalConversationId: refund.providerReference!, resultUrl: url, timeoutUrl: url, remarks: `Refund ${refund.refundId}` }));
      return null;
    },

    async payout(input) {
      if (input.currency !== 'KES' || input.amount % 100 !== 0) throw new ProviderError('rejected', 'An M-Pesa payout is in whole shillings.');
      const url = input.callbackUrl;
      const ack = await call('consumer_secret', () =>
        client.b2cPayment({ originatorConversationId: input.payoutId, phone: input.phone, amountKes: input.amount / 100, resultUrl: url, timeoutUrl: url, remarks: `Payout ${input.payoutId}`, occasion: 'Commission' }),
      );
      return { providerReference: ack.conversationId };
    },

    async queryPayout(input) {
      const url = input.callbackUrl;
      await call('consumer_secret', () => client.transactionStatus({ originalConversationId: input.payoutId, resultUrl: url, timeoutUrl: url, remarks: `Payout ${input.payoutId}` }));
    },

    async verifyCredentials() {
      await call('consumer_secret', () => client.accessToken());
      return { account: {} };
    },
  };
}

const noSpace = (v: string | undefined) => Boolean(v && /^\S+$/.test(v));

export const mpesaDefinition: ProviderDefinition = {
  type: 'mpesa',
  methods: ['mobile_money'],
  secretFields: ['consumer_key', 'consumer_secret', 'passkey', 'initiator_password'],
  accountFields: ['shortcode', 'shortcode_type', 'till_number', 'initiator_name', 'b2c_shortcode'],
  tokenizedCallbacks: true,
  defaultApiUrl: (livemode) => (livemode ? DARAJA_PRODUCTION_URL : DARAJA_SANDBOX_URL),
  checkForm({ account, secrets }) {
    if (!/^\d{5,8}$/.test(account.shortcode ?? '')) return formError('shortcode', 'malformed', 'The shortcode is 5 to 8 digits.');
    if (account.shortcode_type !== 'paybill' && account.shortcode_type !== 'till') return formError('shortcode_type', 'malformed', 'The shortcode type is paybill or till.');
    if (account.shortcode_type === 'till' && !/^\d{5,8}$/.test(account.till_number ?? '')) return formError('till_number', 'malformed', 'A till needs its till number, 5 to 8 digits.');
    for (const field of ['consumer_key', 'consumer_secret', 'passkey'] as const) {
      if (!noSpace(secrets[field])) return formError(field, 'malformed', `The ${field} is missing or has spaces.`);
    }
    if (Boolean(account.initiator_name) !== Boolean(secrets.initiator_password)) {
      return formError(account.initiator_name ? 'initiator_password' : 'initiator_name', 'malformed', 'Refunds need both the initiator name and its password.');
    }
    if (account.b2c_shortcode && !/^\d{5,8}$/.test(account.b2c_shortcode)) return formError('b2c_shortcode', 'malformed', 'The B2C shortcode is 5 to 8 digits.');
    return null;
  },
  capabilities: (account) => ({ refunds: Boolean(account.initiator_name), payouts: Boolean(account.initiator_name && account.b2c_shortcode), automatic_renewal: false }),
  accepts: (amount, currency) => currency === 'KES' && Number.isInteger(amount) && amount >= 100 && amount % 100 === 0,
  create: (credentials, env) => mpesaProvider(credentials, env),
};
