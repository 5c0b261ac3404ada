import type { Payment } from '../api/types';

export type ReviewReason = 'late' | 'amount_mismatch';

export interface HeldPayment {
  payment: Payment;
  reasons: ReviewReason[];
  /** What a refund from the console may still return of this payment, in minor units (0: nothing). */
  refundable: number;
}

/**
 * Payments held for review: those confirmed after their order expired or was cancelled (`late`) and those the
 * provider confirmed for another amount (`amount_mismatch`), newest first, each once with every reason it has.
 */
export function heldForReview(late: readonly Payment[], mismatched: readonly Payment[]): HeldPayment[] {
  const byId = new Map<string, HeldPayment>();
  const add = (p: Payment, reason: ReviewReason) => {
    const held = byId.get(p.id) ?? { payment: p, reasons: [], refundable: refundableOf(p) };
    if (!held.reasons.includes(reason)) held.reasons.push(reason);
    byId.set(p.id, held);
  };
  for (const p of late) add(p, 'late');
  for (const p of mismatched) add(p, 'amount_mismatch');
  return [...byId.values()].sort((a, b) => b.payment.created_at.localeCompare(a.payment.created_at) || b.payment.id.localeCompare(a.payment.id));
}

/** Money of a payment that came in and has not gone back: only a succeeded payment holds any. */
export const refundableOf = (p: Pick<Payment, 'status' | 'amount' | 'amount_refunded'>) => (p.status === 'succeeded' ? Math.max(0, p.amount - p.amount_refunded) : 0);

/** How long an attempt has waited for its payer or provider, as a person reads it: `40 s`, `12 min`, `3 h 5 min`. */
export function waitingFor(since: string, now: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - Date.parse(since)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

export const REASON_TEXT: Record<ReviewReason, string> = {
  late: 'Late: confirmed after its order expired or was cancelled',
  amount_mismatch: 'Amount mismatch: the provider confirmed another amount',
};
