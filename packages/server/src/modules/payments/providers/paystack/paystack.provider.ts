import { PAYSTACK_URL } from '../../../../boot/payments-config';
import { ProviderError, type InboundResult, type PaymentProvider, type ProviderCredentials, type ProviderDefinition, type ProviderPaymentState, type RefundState } from '../../provider';
import { call, chargeResult, formError, secretOf, toProviderError, type AdapterEnvironment } from '../adapter-kit';
import { isProviderError } from '../provider-errors';
import { PaystackClient, paystackFailureCode, paystackKeyMode } from './paystack-client';
import { verifyPaystackSignature } from './paystack-signature';
import type { PaystackRefund, PaystackTransaction } from './paystack-types';

/** Paystack takes letters, digits, `-`, `.` and `=` in a reference: the `pay_` id with `-` for `_`. */
export const paystackReference = (paymentId: string) => paymentId.replace(/_/g, '-');

/** A buyer without an email gets one at a reserved domain (RFC 2606), which reaches nobody. */
const placeholderEmail = (reference: string) => `${reference}@buyers.example.com`;

export function paymentStateOf(t: PaystackTransaction): ProviderPaymentState {
  switch (t.status) {
    // A reversed transaction was paid; its refund is a refund's business.
    case 'success':
    case 'reversed': {
      // A reusable card authorization is kept for automatic renewal, with the email it belongs to.
      const a = t.authorization;
      const savedMethod = a?.reusable && a.channel === 'card' && t.customerEmail ? { authorization_code: a.authorizationCode, email: t.customerEmail } : null;
      return { status: 'succeeded', amount: t.amount, currency: t.currency, providerReceipt: String(t.id), savedMethod };
    }
    case 'failed':
      return { status: 'failed', failureCode: paystackFailureCode(t.gatewayResponse), failureMessage: t.gatewayResponse };
    default:
      // `abandoned` is a page not (yet) paid: the service gives it up when the order stops waiting.
      return { status: 'pending' };
  }
}

export function refundStateOf(r: Pick<PaystackRefund, 'status'>, message: string | null = null): RefundState {
  if (r.status === 'processed') return { status: 'succeeded' };
  if (r.status === 'failed' || r.status === 'reversed') return { status: 'failed', failureCode: 'provider_error', failureMessage: message };
  return { status: 'pending' };
}

interface PaystackEvent {
  event?: string;
  data?: { id?: number | string; reference?: string; transaction_reference?: string; refund_reference?: string | null; status?: string; amount?: number | string; currency?: string; gateway_response?: string };
}

/** A verified event: `charge.success` is about a payment; `refund.*` about a refund (found by its id when the event has one). */
function notificationOf(e: PaystackEvent): InboundResult {
  const d = e.data ?? {};
  const type = e.event ?? '';
  if (type === 'charge.success' && d.reference) {
    const hint = { status: 'succeeded' as const, amount: Number(d.amount), currency: String(d.currency ?? ''), providerReceipt: d.id === undefined ? null : String(d.id) };
    return { providerEventId: `${type}:${d.id ?? d.reference}`, kind: 'payment', reference: d.reference, hint, providerReceipt: hint.providerReceipt };
  }
  if (type.startsWith('refund.')) {
    const status = (d.status ?? type.slice('refund.'.length)) as PaystackRefund['status'];
    // Paystack's refund events name the transaction, and not always the refund: the id when it is there.
    const reference = d.id === undefined ? null : String(d.id);
    return { providerEventId: `${type}:${d.transaction_reference ?? ''}:${d.id ?? d.refund_reference ?? ''}:${d.amount ?? ''}`, kind: 'refund', reference, hint: refundStateOf({ status }), providerReceipt: null };
  }
  return { providerEventId: `${type}:${d.id ?? d.reference ?? ''}`, kind: 'other', reference: null, hint: null, providerReceipt: null };
}

function paystackProvider(credentials: ProviderCredentials, env: AdapterEnvironment): PaymentProvider {
  const secretKey = secretOf(credentials.secrets, 'secret_key');
  const client = new PaystackClient({ baseUrl: env.apiUrl, secretKey, http: env.http });
  return {
    type: 'paystack',
    async startPayment(input) {
      const reference = paystackReference(input.paymentId);
      try {
        const t = await client.initializeTransaction({
          email: input.email ?? placeholderEmail(reference),
          amount: input.amount,
          currency: input.currency,
          reference,
          callbackUrl: input.returnUrl,
          channels: [input.method === 'card' ? 'card' : 'mobile_money'],
          metadata: { payment: input.paymentId, order: input.orderCode },
        });
        return { providerReference: t.reference, state: { status: 'pending' }, nextAction: { type: 'redirect', url: t.authorizationUrl } };
      } catch (err) {
        // A refusal of this transaction (a currency the account does not take) fails the attempt.
        if (isProviderError(err, 'rejected')) return { providerReference: null, state: { status: 'failed', failureCode: 'provider_error', failureMessage: err.message }, nextAction: null };
        throw toProviderError(err, 'secret_key');
      }
    },

    async queryPayment(attempt) {
      const reference = attempt.providerReference ?? paystackReference(attempt.paymentId);
      return paymentStateOf(await call('secret_key', () => client.verifyTransaction(reference)));
    },

    async chargeSaved(input) {
      const { authorization_code: authorizationCode, email } = input.saved;
      if (!authorizationCode || !email) throw new ProviderError('rejected', 'The saved card is not a Paystack authorization.');
      const reference = paystackReference(input.paymentId);
      try {
        await client.chargeAuthorization({ email, amount: input.amount, currency: input.currency, authorizationCode, reference, metadata: { payment: input.paymentId } });
      } catch (err) {
        // Refused outright (an authorization no longer valid): this attempt fails. Lost in transit: verify decides later.
        if (isProviderError(err, 'rejected') || isProviderError(err, 'not_found')) return { providerReference: reference, state: { status: 'failed', failureCode: 'declined', failureMessage: err.message }, nextAction: null };
        if (!isProviderError(err, 'unavailable')) throw toProviderError(err, 'secret_key');
        return chargeResult(reference, { status: 'pending' });
      }
      // The charge's own answer is not trusted: the transaction as verify shows it decides.
      try {
        return chargeResult(reference, paymentStateOf(await client.verifyTransaction(reference)));
      } catch (err) {
        if (isProviderError(err, 'credentials_refused')) throw toProviderError(err, 'secret_key');
        return chargeResult(reference, { status: 'pending' });
      }
    },

    async cancelPayment() {
      // Paystack has no call to close a transaction; an abandoned one simply stays unpaid.
    },

    parseNotification(request) {
      if (!verifyPaystackSignature(request.rawBody, request.headers['x-paystack-signature'], secretKey)) {
        return { refused: 'unauthenticated', message: 'The x-paystack-signature does not match the body.' };
      }
      try {
        return notificationOf(JSON.parse(request.rawBody.toString('utf8')) as PaystackEvent);
      } catch {
        return { refused: 'malformed', message: 'The body is not JSON.' };
      }
    },

    async refund(input) {
      const transaction = input.payment.providerReference ?? paystackReference(input.payment.paymentId);
      try {
        const r = await client.createRefund({ transaction, amount: input.amount, currency: input.currency, merchantNote: `Refund ${input.refundId}` });
        return { providerReference: String(r.id), state: refundStateOf(r) };
      } catch (err) {
        if (isProviderError(err, 'rejected') || isProviderError(err, 'not_found')) {
          const failureCode = /insufficient|balance/i.test(err.message) ? 'insufficient_balance' : 'provider_error';
          return { providerReference: null, state: { status: 'failed', failureCode, failureMessage: err.message } };
        }
        throw toProviderError(err, 'secret_key');
      }
    },

    async queryRefund(refund) {
      if (!refund.providerReference) return null;
      return refundStateOf(await call('secret_key', () => client.fetchRefund(refund.providerReference!)));
    },

    async verifyCredentials() {
      await call('secret_key', () => client.checkCredentials());
      return { account: {} };
    },
  };
}

export const paystackDefinition: ProviderDefinition = {
  type: 'paystack',
  methods: ['card', 'mobile_money'],
  secretFields: ['secret_key'],
  accountFields: [],
  tokenizedCallbacks: false,
  defaultApiUrl: () => PAYSTACK_URL,
  checkForm({ livemode, secrets }) {
    const mode = paystackKeyMode(secrets.secret_key ?? '');
    if (!mode) return formError('secret_key', 'malformed', 'A Paystack secret key starts sk_test_ or sk_live_.');
    if ((mode === 'live') !== livemode) return formError('secret_key', 'wrong_mode', `A ${mode} key cannot serve ${livemode ? 'live' : 'test'} mode.`);
    return null;
  },
  capabilities: () => ({ refunds: true, payouts: false, automatic_renewal: true }),
  // The currency is passed on; Paystack's refusal fails the payment with provider_error.
  accepts: (amount) => Number.isInteger(amount) && amount > 0,
  create: (credentials, env) => paystackProvider(credentials, env),
};
