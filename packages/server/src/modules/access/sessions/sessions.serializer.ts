import { ACCESS_LIMITS, type AccessSession, type SessionGrant } from '@svc/contract';
import type { AccessSessionRow } from '../../../db/access.schema';

const iso = (d: Date | string) => new Date(d).toISOString();

/** The session as the API shows it; `grant` only while it is active and a link was just made. */
export function serializeSession(row: AccessSessionRow, grant: SessionGrant | null): AccessSession {
  return {
    id: row.id,
    object: 'access_session',
    livemode: row.livemode,
    entitlement: row.entitlement_id,
    customer: row.customer,
    contact_hash: row.contact_hash,
    resource: { type: row.resource_type, id: row.resource_id, variant: row.variant },
    device_id: row.device_id,
    state: row.state,
    ended_reason: row.ended_reason,
    expires_at: iso(row.expires_at),
    heartbeat_interval: ACCESS_LIMITS.session.heartbeatIntervalSeconds,
    grant: row.state === 'active' ? grant : null,
    created_at: iso(row.created_at),
    ended_at: row.ended_at ? iso(row.ended_at) : null,
  };
}
