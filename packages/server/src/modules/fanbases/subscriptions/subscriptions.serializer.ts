import type { Subscription } from '@svc/contract';
import type { SubscriptionRow } from '../../../db/fanbases.schema';
import { iso } from '../fanbases/fanbases.serializer';

/** The last four digits of the phone prompts go to: enough for the fan to recognise it. */
const hint = (phone: string | null) => (phone ? `••••${phone.slice(-4)}` : null);

export function serializeSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    object: 'subscription',
    livemode: row.livemode,
    fanbase: row.fanbase_id,
    organization: row.organization_id,
    tier: row.tier_id,
    customer: row.customer,
    membership: row.membership_id,
    status: row.status,
    amount: Number(row.amount),
    currency: row.currency,
    interval: row.interval,
    current_period_start: iso(row.current_period_start),
    current_period_end: iso(row.current_period_end),
    cancel_at_period_end: row.cancel_at_period_end,
    pending_tier: row.pending_tier_id,
    renewal: { mode: row.renewal_mode, phone_hint: hint(row.phone), next_attempt_at: iso(row.next_attempt_at), attempts: row.attempts },
    latest_order: row.latest_order_id,
    checkout_url: row.checkout_url,
    grace_ends_at: iso(row.grace_ends_at),
    cancelled_at: iso(row.cancelled_at),
    ended_at: iso(row.ended_at),
    cancellation_reason: row.cancellation_reason,
    external_id: row.external_id,
    metadata: row.metadata,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}
