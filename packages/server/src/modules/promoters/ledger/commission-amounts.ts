import type { AssignmentRow } from '../../../db/promoters.schema';

/** Products-api § 4.2: `percent` = floor(net × basis_points / 10000), `fixed` = amount × covered quantity, capped at `max_per_order`. */
export function commissionOf(rule: Pick<AssignmentRow, 'commission_type' | 'basis_points' | 'amount' | 'max_per_order'>, net: number, quantity: number): number {
  const raw = rule.commission_type === 'percent' ? Math.floor((net * (rule.basis_points ?? 0)) / 10_000) : (rule.amount ?? 0) * quantity;
  return Math.max(0, rule.max_per_order === null ? raw : Math.min(raw, rule.max_per_order));
}

/**
 * What the order's reversals should add up to once `refunded` of `paid` went back: the commission in proportion,
 * computed on the running total so that partial refunds never drift and a full refund reverses it exactly.
 */
export function reversalTotal(commission: number, refunded: number, paid: number): number {
  if (paid <= 0) return 0;
  return Math.round((commission * Math.min(refunded, paid)) / paid);
}
