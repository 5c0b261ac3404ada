import type { Commission } from '@svc/contract';
import type { CommissionRow } from '../../../db/promoters.schema';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export const serializeCommission = (row: CommissionRow): Commission => ({
  id: row.id,
  object: 'commission',
  livemode: row.livemode,
  promoter: row.promoter_id,
  assignment: row.assignment_id,
  order: row.order_id,
  type: row.type,
  amount: row.amount,
  currency: row.currency,
  status: row.status,
  available_at: row.available_at.toISOString(),
  reverses: row.reverses,
  payout: row.payout_id,
  approved_at: iso(row.approved_at),
  paid_at: iso(row.paid_at),
  created_at: row.created_at.toISOString(),
});
