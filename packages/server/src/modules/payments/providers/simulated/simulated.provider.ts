import { MAGIC_PAYERS } from '@svc/contract';
import type { AttemptRef, PaymentProvider, ProviderDefinition, ProviderPaymentState, RefundState } from '../../provider';
import { payerHint, simulatePayment, simulateRefund, simulateSavedCharge } from './simulator';

/**
 * The test-mode provider: no network, its outcomes chosen by the magic phones and cards (docs/ticketing.md).
 * A payer that "never answers" stays pending at every query, so reconciliation ends it as `timeout`.
 */
function simulatedProvider(now: () => Date): PaymentProvider {
  const stateOf = (attempt: AttemptRef): ProviderPaymentState => {
    const outcome = simulatePayment(attempt.payerHint ? hintPayer(attempt) : '');
    if (outcome.status === 'succeeded') return { status: 'succeeded', amount: attempt.amount, currency: attempt.currency, providerReceipt: null };
    if (outcome.status === 'failed') return { status: 'failed', failureCode: outcome.failureCode, failureMessage: null };
    return { status: 'pending' };
  };
  return {
    type: 'simulated',
    async startPayment(input) {
      const outcome = simulatePayment(input.phone ?? input.cardNumber ?? '');
      const reference = `sim_${input.paymentId.slice(4)}`;
      if (outcome.status === 'pending') {
        const expires = new Date(now().getTime() + 120_000).toISOString();
        return {
          providerReference: reference,
          state: { status: 'pending' },
          nextAction: input.method === 'mobile_money' ? { type: 'confirm_on_phone', phone_hint: payerHint(input.phone ?? ''), expires_at: expires } : null,
        };
      }
      const state: Exclude<ProviderPaymentState, { status: 'pending' }> =
        outcome.status === 'succeeded'
          ? { status: 'succeeded', amount: input.amount, currency: input.currency, providerReceipt: null }
          : { status: 'failed', failureCode: outcome.failureCode, failureMessage: null };
      return { providerReference: reference, state, nextAction: null };
    },
    async queryPayment(attempt) {
      return stateOf(attempt);
    },
    async cancelPayment() {},
    async chargeSaved(input) {
      const outcome = simulateSavedCharge(input.saved);
      const state: Exclude<ProviderPaymentState, { status: 'pending' }> =
        outcome.status === 'succeeded'
          ? { status: 'succeeded', amount: input.amount, currency: input.currency, providerReceipt: null }
          : { status: 'failed', failureCode: outcome.failureCode, failureMessage: null };
      return { providerReference: `sim_${input.paymentId.slice(4)}`, state, nextAction: null };
    },
    parseNotification() {
      return { refused: 'unauthenticated', message: 'The simulator sends no notifications.' };
    },
    async refund(input) {
      return { providerReference: `sim_${input.refundId.slice(3)}`, state: simulateRefund(input.payment) };
    },
    async queryRefund(): Promise<RefundState | null> {
      // A pending simulated refund settles only through the test helper.
      return { status: 'pending' };
    },
    async verifyCredentials() {
      return { account: {} };
    },
  };
}

/** The magic payer a hint stands for, so that a query replays the outcome the attempt started with. */
function hintPayer(attempt: AttemptRef): string {
  const all = Object.values(MAGIC_PAYERS).flat() as string[];
  return all.find((p) => (attempt.method === 'card') === !p.startsWith('+') && payerHint(p) === attempt.payerHint) ?? '';
}

export const simulatedDefinition: ProviderDefinition = {
  type: 'simulated',
  methods: ['mobile_money', 'card'],
  secretFields: [],
  accountFields: [],
  tokenizedCallbacks: false,
  defaultApiUrl: () => '',
  checkForm: () => null,
  capabilities: () => ({ refunds: true, payouts: false, automatic_renewal: true }),
  accepts: () => true,
  create: (_credentials, env) => simulatedProvider(env.now),
};
