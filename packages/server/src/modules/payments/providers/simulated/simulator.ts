import { MAGIC_PAYERS } from '@svc/contract';
import type { AttemptRef, PaymentFailureCode, RefundState, SavedMethod } from '../../provider';

/** What the simulated payment network does with a payer: settle now, refuse, or never answer. */
export type SimulatedOutcome = { status: 'succeeded' } | { status: 'failed'; failureCode: PaymentFailureCode } | { status: 'pending' };

const has = (list: readonly string[], payer: string) => list.includes(payer);

/** The test-mode outcome for a phone number or card number (the magic values of docs/ticketing.md). */
export function simulatePayment(payer: string): SimulatedOutcome {
  if (has(MAGIC_PAYERS.insufficientFunds, payer)) return { status: 'failed', failureCode: 'insufficient_funds' };
  if (has(MAGIC_PAYERS.declined, payer)) return { status: 'failed', failureCode: 'declined' };
  if (has(MAGIC_PAYERS.cancelledByUser, payer)) return { status: 'failed', failureCode: 'cancelled_by_user' };
  if (has(MAGIC_PAYERS.timesOut, payer)) return { status: 'failed', failureCode: 'timeout' };
  if (has(MAGIC_PAYERS.neverAnswers, payer)) return { status: 'pending' };
  return { status: 'succeeded' };
}

/** The last four digits: all a payment keeps of the phone or card. */
export const payerHint = (payer: string) => payer.replace(/\D/g, '').slice(-4);

const matches = (list: readonly string[], p: AttemptRef) =>
  list.some((payer) => (p.method === 'card') === !payer.startsWith('+') && payerHint(payer) === p.payerHint);

/** A simulated refund: refused, or left pending (for the test helper), for their magic payers; else settled at once. */
export function simulateRefund(payment: AttemptRef): RefundState {
  if (matches(MAGIC_PAYERS.refundFails, payment)) return { status: 'failed', failureCode: 'declined', failureMessage: null };
  if (matches(MAGIC_PAYERS.refundsPending, payment)) return { status: 'pending' };
  return { status: 'succeeded' };
}

/**
 * A simulator card a subscription keeps for automatic renewal: its last four digits only (a card number is never
 * stored), enough to replay its magic value when the renewal charges it.
 */
export const simulatedSavedCard = (cardNumber: string): SavedMethod => ({ card_hint: payerHint(cardNumber) });

/** A renewal charge of a kept simulator card: `declined` for the magic renewal card, else settled at once. */
export function simulateSavedCharge(saved: SavedMethod): Exclude<SimulatedOutcome, { status: 'pending' }> {
  const declined = MAGIC_PAYERS.renewalDeclined.some((card) => payerHint(card) === saved.card_hint);
  return declined ? { status: 'failed', failureCode: 'declined' } : { status: 'succeeded' };
}
