import { MAGIC_PAYERS } from '@svc/contract';

/** What the simulated payment network does with a payer: settle now, refuse, or never answer. */
export type SimulatedOutcome =
  | { status: 'succeeded'; refundsFail: boolean }
  | { status: 'failed'; failureCode: 'insufficient_funds' | 'declined' }
  | { status: 'pending' };

const has = (list: readonly string[], payer: string) => list.includes(payer);

/** The test-mode outcome for a phone number or card number (the magic values of docs/ticketing.md). */
export function simulatePayment(payer: string): SimulatedOutcome {
  if (has(MAGIC_PAYERS.insufficientFunds, payer)) return { status: 'failed', failureCode: 'insufficient_funds' };
  if (has(MAGIC_PAYERS.declined, payer)) return { status: 'failed', failureCode: 'declined' };
  if (has(MAGIC_PAYERS.neverAnswers, payer)) return { status: 'pending' };
  return { status: 'succeeded', refundsFail: has(MAGIC_PAYERS.refundFails, payer) };
}

/** The last four digits: all a payment keeps of the phone or card. */
export const payerHint = (payer: string) => payer.replace(/\D/g, '').slice(-4);

/** Whether refunds of a payment fail, from what it kept (the hint of a refund-failing magic payer). */
export const refundsFailFor = (method: string, hint: string | null) =>
  MAGIC_PAYERS.refundFails.some((p) => (method === 'card') === !p.startsWith('+') && payerHint(p) === hint);
