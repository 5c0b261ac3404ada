import type { FanbaseMembership } from '@svc/contract';
import type { MembershipRow } from '../../../db/fanbases.schema';
import { iso } from '../fanbases/fanbases.serializer';

const LIVE = ['incomplete', 'active', 'past_due'];

export function serializeMembership(row: MembershipRow & { subscription_status?: string | null }): FanbaseMembership {
  return {
    id: row.id,
    object: 'membership',
    livemode: row.livemode,
    fanbase: row.fanbase_id,
    customer: row.customer,
    status: row.status,
    tier: row.tier_id,
    source: row.source,
    subscription: row.subscription_id && row.subscription_status && LIVE.includes(row.subscription_status) ? row.subscription_id : null,
    ends_at: iso(row.ends_at),
    joined_at: iso(row.joined_at)!,
    left_at: iso(row.left_at),
    external_id: row.external_id,
    metadata: row.metadata,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}
