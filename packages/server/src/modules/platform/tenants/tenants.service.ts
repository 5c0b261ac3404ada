import { LIMITS, PRODUCTS, type CursorPageQuery, type Product } from '@svc/contract';
import type { Database, Executor } from '../../../db/database';
import { notifyCredentialsChanged } from '../../../core/auth/credential-cache';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import { createInitialKeys } from '../keys/keys.service';
import * as repo from './tenants.repository';
import { serializeTenant } from './tenants.serializer';
import { freeTenantCode } from './tenant-code';

/** The operator's video choices for a tenant: live-mode network and own video environment. */
export interface TenantVideoInput {
  live_network?: string | null;
  dedicated_environment?: boolean;
}

export interface CreateTenantInput {
  name: string;
  code?: string;
  products?: Product[];
  rate_limits?: { secret?: number; publishable?: number };
  video?: TenantVideoInput;
  external_id?: string;
  metadata?: Record<string, string>;
}

export interface UpdateTenantInput {
  name?: string;
  code?: string;
  products?: Product[];
  rate_limits?: { secret?: number; publishable?: number };
  video?: TenantVideoInput;
  external_id?: string | null;
  metadata?: Record<string, string>;
}

const externalIdTaken = (err: unknown) => {
  if (isUniqueViolation(err, 'tenants_code')) return ApiError.of('tenant_code_taken', { param: 'code' });
  return isUniqueViolation(err, 'tenants_external_id_key') ? ApiError.of('external_id_taken', { param: 'external_id' }) : err;
};

/** Products in the spec's order, without repeats. */
const normaliseProducts = (products: readonly Product[]) => PRODUCTS.filter((p) => products.includes(p));

/** A tenant and its first four keys, in one transaction: a tenant never exists without its keys. */
export async function createTenant(db: Database, input: CreateTenantInput) {
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await repo.insertTenant(trx, {
        id: newId('tenant'),
        name: input.name,
        code: input.code ?? (await freeTenantCode(trx, input.name)),
        products: normaliseProducts(input.products ?? PRODUCTS),
        rate_limit_secret: input.rate_limits?.secret ?? LIMITS.rateLimits.secret,
        rate_limit_publishable: input.rate_limits?.publishable ?? LIMITS.rateLimits.publishable,
        video_live_network: input.video?.live_network ?? null,
        video_dedicated_environment: input.video?.dedicated_environment ?? false,
        external_id: input.external_id ?? null,
        metadata: JSON.stringify(input.metadata ?? {}),
      });
      const keys = await createInitialKeys(trx, row.id);
      return { tenant: serializeTenant(row), keys };
    });
  } catch (err) {
    throw externalIdTaken(err);
  }
}

async function getRow(db: Executor, id: string, forUpdate = false) {
  const row = isIdOf('tenant', id) ? await repo.findTenant(db, id, { forUpdate }) : undefined;
  if (!row) throw ApiError.notFound('tenant', id);
  return row;
}

/** How many tenants exist: none means a first start (the demo tenant). */
export async function countTenants(db: Executor): Promise<number> {
  return repo.countTenants(db);
}

export async function getTenant(db: Executor, id: string) {
  return serializeTenant(await getRow(db, id));
}

export async function getTenantByExternalId(db: Executor, externalId: string) {
  const row = await repo.findTenantByExternalId(db, externalId);
  if (!row) throw ApiError.notFound('tenant with external_id', externalId);
  return serializeTenant(row);
}

export async function listTenants(db: Executor, filters: { external_id?: string; metadata?: Record<string, string> }, page: CursorPageQuery) {
  const result = await repo.listTenants(db, filters, page);
  return { ...result, data: result.data.map(serializeTenant) };
}

/** Products and rate limits take effect on every process at once: cached keys of the tenant are dropped. */
export async function updateTenant(db: Database, id: string, input: UpdateTenantInput) {
  try {
    return await db.transaction().execute(async (trx) => {
      await getRow(trx, id, true);
      const row = await repo.updateTenantRow(trx, id, {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.code !== undefined && { code: input.code }),
        ...(input.products !== undefined && { products: normaliseProducts(input.products) }),
        ...(input.rate_limits?.secret !== undefined && { rate_limit_secret: input.rate_limits.secret }),
        ...(input.rate_limits?.publishable !== undefined && { rate_limit_publishable: input.rate_limits.publishable }),
        ...(input.video?.live_network !== undefined && { video_live_network: input.video.live_network }),
        ...(input.video?.dedicated_environment !== undefined && { video_dedicated_environment: input.video.dedicated_environment }),
        ...(input.external_id !== undefined && { external_id: input.external_id }),
        ...(input.metadata !== undefined && { metadata: JSON.stringify(input.metadata) }),
        updated_at: new Date(),
      });
      await notifyCredentialsChanged(trx, { tenantId: id });
      return serializeTenant(row!);
    });
  } catch (err) {
    throw externalIdTaken(err);
  }
}
