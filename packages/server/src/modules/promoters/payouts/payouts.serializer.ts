import type { Payout } from '@svc/contract';
import type { PayoutRow } from '../../../db/promoters.schema';

/** The last digits of the phone paid, never the whole number. */
const hintOf = (phone: string | null) => (phone ? `•••${phone.slice(-3)}` : null);

export const serializePayout = (row: PayoutRow): Payout => ({
  id: row.id,
  object: 'payout',
  livemode: row.livemode,
  promoter: row.promoter_id,
  organization: row.organization_id,
  amount: row.amount,
  currency: row.currency,
  method: row.method,
  status: row.status,
  reference: row.reference,
  phone_hint: hintOf(row.phone),
  provider_config: row.provider_config_id,
  failure_code: row.failure_code,
  failure_message: row.failure_message,
  paid_at: row.paid_at?.toISOString() ?? null,
  metadata: row.metadata,
  created_at: row.created_at.toISOString(),
});
