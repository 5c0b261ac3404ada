import type { Refund } from '@svc/contract';
import type { RefundRow } from './refunds.repository';

export function serializeRefund(row: RefundRow): Refund {
  return {
    id: row.id,
    object: 'refund',
    livemode: row.livemode,
    order: row.order_id,
    amount: row.amount,
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    failure_code: row.failure_code,
    failure_message: row.failure_message,
    payment: row.payment_id,
    source: row.source,
    line_items: row.line_items ?? [],
    provider: row.provider,
    provider_reference: row.provider_reference,
    metadata: row.metadata ?? {},
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    settled_at: row.settled_at === null ? null : new Date(row.settled_at).toISOString(),
  };
}
