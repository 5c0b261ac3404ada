import type { ApiKey } from '@svc/contract';
import type { ApiKeyRow } from '../../../db/schema';

export function keyStatus(row: Pick<ApiKeyRow, 'revoked_at' | 'expires_at'>, now = Date.now()): ApiKey['status'] {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at && row.expires_at.getTime() <= now) return 'expired';
  return 'active';
}

/** The key as the API shows it; `secret` only when it was just created or rolled. */
export function serializeKey(row: ApiKeyRow, secret?: string): ApiKey {
  return {
    id: row.id,
    object: 'api_key',
    type: row.type,
    livemode: row.livemode,
    name: row.name,
    redacted: row.redacted,
    status: keyStatus(row),
    scopes: row.scopes as ApiKey['scopes'],
    ip_allowlist: row.ip_allowlist,
    created_by: row.created_by,
    expires_at: row.expires_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    created_at: new Date(row.created_at).toISOString(),
    external_id: row.external_id,
    metadata: row.metadata,
    ...(secret ? { secret } : {}),
  };
}
