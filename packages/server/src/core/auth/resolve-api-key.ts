import type { Product, Scope as ScopeName } from '@svc/contract';
import type { Executor } from '../../db/database';
import type { CachedCredential } from './credential-cache';

/** The key with this secret hash and its tenant, or `undefined`; revoked and expired keys are returned too, so the caller can say which. */
export async function resolveApiKey(db: Executor, secretHash: string): Promise<CachedCredential | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('tenants', 'tenants.id', 'api_keys.tenant_id')
    .select([
      'api_keys.id',
      'api_keys.type',
      'api_keys.livemode',
      'api_keys.scopes',
      'api_keys.ip_allowlist',
      'api_keys.expires_at',
      'api_keys.revoked_at',
      'tenants.id as tenant_id',
      'tenants.products',
      'tenants.rate_limit_secret',
      'tenants.rate_limit_publishable',
    ])
    .where('api_keys.secret_hash', '=', secretHash)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    key: {
      id: row.id,
      type: row.type,
      livemode: row.livemode,
      scopes: row.scopes as ScopeName[] | null,
      ipAllowlist: row.ip_allowlist,
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at,
    },
    tenant: {
      id: row.tenant_id,
      products: row.products as Product[],
      rateLimits: { secret: row.rate_limit_secret, publishable: row.rate_limit_publishable },
    },
  };
}
