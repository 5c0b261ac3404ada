import type { EntitlementLimitsInput, MembershipTier } from '@svc/contract';
import type { TierRow } from '../../../db/fanbases.schema';
import { iso } from '../fanbases/fanbases.serializer';

export function serializeTier(row: TierRow, memberCount: number): MembershipTier {
  return {
    id: row.id,
    object: 'membership_tier',
    livemode: row.livemode,
    fanbase: row.fanbase_id,
    name: row.name,
    description: row.description,
    price: Number(row.price),
    currency: row.currency,
    interval: row.interval,
    benefits: row.benefits,
    grants: row.grants,
    limits: (row.limits as EntitlementLimitsInput | null) ?? null,
    max_members: row.max_members,
    status: row.status,
    position: row.position,
    member_count: memberCount,
    external_id: row.external_id,
    metadata: row.metadata,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}
