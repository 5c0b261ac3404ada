import type { Domain, DomainFamily } from '@svc/contract';
import type { DomainRow } from '../../../db/whitelabel.schema';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** The TXT record's name: under the hostname, so only whoever controls its DNS can publish it. */
export const challengeName = (hostname: string) => `_svc-challenge.${hostname}`;

export function serializeDomain(row: DomainRow, dnsTarget: string): Domain {
  return {
    id: row.id,
    object: 'domain',
    livemode: row.livemode,
    hostname: row.hostname,
    organization: row.organization_id,
    serves: row.serves as DomainFamily[],
    status: row.status,
    verification: { type: 'TXT', name: challengeName(row.hostname), value: row.verification_value },
    dns_target: dnsTarget,
    failure_reason: row.failure_reason,
    trusted_origin: row.trusted_origin,
    verified_at: iso(row.verified_at),
    activated_at: iso(row.activated_at),
    failed_at: iso(row.failed_at),
    last_checked_at: iso(row.last_checked_at),
    metadata: row.metadata,
    created_at: new Date(row.created_at).toISOString(),
  };
}
