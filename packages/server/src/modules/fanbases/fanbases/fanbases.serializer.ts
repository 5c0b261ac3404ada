import type { Fanbase } from '@svc/contract';
import type { FanbaseRow } from '../../../db/fanbases.schema';

export const iso = (d: Date | string | null | undefined) => (d === null || d === undefined ? null : new Date(d).toISOString());

export function serializeFanbase(row: FanbaseRow, counts: { members: number; subscribers: number }): Fanbase {
  return {
    id: row.id,
    object: 'fanbase',
    livemode: row.livemode,
    organization: row.organization_id,
    name: row.name,
    description: row.description,
    status: row.status,
    currency: row.currency,
    grace_period_days: row.grace_period_days,
    renewal_notice_hours: row.renewal_notice_hours,
    member_count: counts.members,
    subscriber_count: counts.subscribers,
    external_id: row.external_id,
    metadata: row.metadata,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}
