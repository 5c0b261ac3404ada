import type { Tenant } from '@svc/contract';
import type { TenantRow } from '../../../db/schema';

export function serializeTenant(row: TenantRow): Tenant {
  return {
    id: row.id,
    object: 'tenant',
    name: row.name,
    products: row.products as Tenant['products'],
    rate_limits: { secret: row.rate_limit_secret, publishable: row.rate_limit_publishable },
    video: {
      live_network: row.video_live_network as Tenant['video']['live_network'],
      dedicated_environment: row.video_dedicated_environment,
    },
    external_id: row.external_id,
    metadata: row.metadata,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
