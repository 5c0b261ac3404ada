import type { Payment } from '@svc/contract';
import type { PaymentRow } from './payments.repository';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function serializePayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    object: 'payment',
    livemode: row.livemode,
    order: row.order_id,
    checkout_session: row.checkout_session_id,
    method: row.method,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    failure_code: row.failure_code,
    failure_message: row.failure_message,
    payer_hint: row.payer_hint,
    provider: row.provider,
    provider_config: row.provider_config_id,
    provider_reference: row.provider_reference,
    provider_receipt: row.provider_receipt,
    organization: row.organization_id,
    customer: row.customer_id,
    amount_refunded: row.amount_refunded,
    late: row.late,
    next_action: row.status === 'pending' ? ((row.next_action as Payment['next_action']) ?? null) : null,
    metadata: row.metadata ?? {},
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    settled_at: iso(row.settled_at),
  };
}
