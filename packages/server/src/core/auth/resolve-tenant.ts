import type { Product } from '@svc/contract';
import type { Executor } from '../../db/database';
import type { ResolvedTenant } from '../principal';

/** The tenant with this id as authentication needs it, or `undefined`. */
export async function resolveTenant(db: Executor, id: string): Promise<ResolvedTenant | undefined> {
  const row = await db
    .selectFrom('tenants')
    .select(['id', 'products', 'rate_limit_secret', 'rate_limit_publishable'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    products: row.products as Product[],
    rateLimits: { secret: row.rate_limit_secret, publishable: row.rate_limit_publishable },
  };
}
