import type { Request } from 'express';
import type { Product } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Executor } from '../../../db/database';
import type { HeaderTenant } from '../identity-caches';
import { cachesOf } from '../identity-parts';

/** The tenant a caller names with `X-Tenant-Code`, or `Svc-Tenant` (identity tokens); `undefined` when neither is sent. */
export function tenantHeaderOf(req: Request): string | undefined {
  for (const name of ['x-tenant-code', 'svc-tenant']) {
    const value = req.headers[name];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return undefined;
}

async function readTenant(db: Executor, codeOrId: string): Promise<HeaderTenant | null> {
  const byId = isIdOf('tenant', codeOrId);
  const row = await db
    .selectFrom('tenants')
    .select(['id', 'code', 'products', 'rate_limit_secret', 'rate_limit_publishable'])
    .where(byId ? 'id' : 'code', '=', byId ? codeOrId : codeOrId.toLowerCase())
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    code: row.code,
    products: row.products as Product[],
    rateLimits: { secret: row.rate_limit_secret, publishable: row.rate_limit_publishable },
  };
}

/**
 * A tenant by code or `ten_` id, kept at most 60 s (a tenant change clears it on every process), or
 * `404 tenant_not_found`. Unknown names are remembered too, so guessing codes costs no query each.
 */
export async function resolveTenant(ctx: AppContext, codeOrId: string): Promise<HeaderTenant> {
  const key = codeOrId.length > 64 ? '' : codeOrId;
  let tenant = key ? cachesOf(ctx).tenants.get(key) : null;
  if (tenant === undefined) {
    const readAt = cachesOf(ctx).tenants.generation;
    tenant = await readTenant(ctx.db, key);
    cachesOf(ctx).tenants.set(key, tenant, readAt);
  }
  if (!tenant) throw ApiError.of('tenant_not_found', { message: `No tenant has the code or id '${codeOrId.slice(0, 64)}'.` });
  return tenant;
}
