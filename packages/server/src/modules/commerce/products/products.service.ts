import type { CommerceProduct, CreateProductInput, CursorPageQuery, UpdateProductInput } from '@svc/contract';
import type { Transaction, Updateable } from 'kysely';
import type { ProductRow, ProductsTable } from '../../../db/commerce.schema';
import type { Executor } from '../../../db/database';
import type { DB } from '../../../db/schema';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import { getOrganizationRow } from '../../identity';
import { nowOf } from '../commerce-access';
import { checkGrants, checkPublishable, checkSkusDistinct, grantLimitsColumn, invalid, skuTaken } from './product-rules';
import * as repo from './products.repository';
import { emitProductEvent, serializeProduct, type ProductEventType } from './products.serializer';
import { stockFreed } from '../stock/sold-out-variants';
import { variantRow } from './variant-rows';

const externalIdTaken = (id: string) => ApiError.of('external_id_taken', { param: 'external_id', message: `Another product already uses the external_id '${id}'.` });

/** Unique violations of a product write, as the API names them. */
export function uniqueViolationOf(err: unknown, input: { external_id?: string | null; sku?: string }): ApiError | undefined {
  if (isUniqueViolation(err, 'products_external_id')) return externalIdTaken(input.external_id ?? '');
  if (isUniqueViolation(err, 'product_variants_sku')) return skuTaken(input.sku ?? '');
  return undefined;
}

export async function getProductRow(db: Executor, scope: Scope, id: string, forUpdate = false): Promise<ProductRow> {
  const row = isIdOf('product', id) ? await repo.findProduct(db, scope, id, { forUpdate }) : undefined;
  if (!row) throw ApiError.notFound('product', id);
  return row;
}

/** The product as the API shows it, with its variants read in the same executor. */
export async function productOf(db: Executor, scope: Scope, row: ProductRow): Promise<CommerceProduct> {
  return serializeProduct(row, await repo.variantsOf(db, scope, [row.id]));
}

export async function createProduct(ctx: AppContext, scope: Scope, input: CreateProductInput): Promise<CommerceProduct> {
  const org = await getOrganizationRow(ctx.db, scope, input.organization).catch((err: unknown) => {
    if (err instanceof ApiError && err.code === 'resource_not_found') throw invalid('organization', `No such organization: '${input.organization}'.`);
    throw err;
  });
  const grants = input.grants ?? [];
  await checkGrants(ctx.db, scope, input.kind, grants);
  if (input.kind !== 'digital' && (input.grant_duration_days != null || input.grant_limits != null)) {
    throw invalid('grants', 'Only digital products grant access.');
  }
  const variants = input.variants ?? [];
  checkSkusDistinct(variants.map((v) => v.sku));
  const taken = await repo.takenSkus(ctx.db, scope, variants.map((v) => v.sku));
  const clash = variants.findIndex((v) => taken.has(v.sku.toLowerCase()));
  if (clash >= 0) throw skuTaken(variants[clash]!.sku, `variants.${clash}.sku`);
  const status = input.status ?? 'draft';
  if (status === 'published') checkPublishable({ kind: input.kind, grants }, variants.filter((v) => v.active !== false).length);
  const now = nowOf(ctx);
  const id = newId('product');
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const row = await repo.insertProduct(trx, {
        id,
        tenant_id: scope.tenantId,
        livemode: scope.livemode,
        organization_id: org.id,
        name: input.name,
        description: input.description ?? null,
        kind: input.kind,
        status,
        currency: input.currency ?? org.currency,
        images: JSON.stringify(input.images ?? []),
        grants: JSON.stringify(grants),
        grant_duration_days: input.grant_duration_days ?? null,
        grant_limits: JSON.stringify(grantLimitsColumn(input.grant_limits)),
        max_per_order: input.max_per_order ?? 10,
        published_at: status === 'published' ? now : null,
        external_id: input.external_id ?? null,
        metadata: JSON.stringify(input.metadata ?? {}),
        created_at: now,
        updated_at: now,
      });
      const variantRows = await repo.insertVariants(trx, variants.map((v) => variantRow(scope, id, v, now)));
      const product = serializeProduct(row, variantRows);
      await emitProductEvent(trx, scope, 'commerce.product.created', product);
      if (status === 'published') await emitProductEvent(trx, scope, 'commerce.product.published', product);
      return product;
    });
  } catch (err) {
    throw uniqueViolationOf(err, { external_id: input.external_id, sku: variants.map((v) => v.sku).join(', ') }) ?? err;
  }
}

export async function getProduct(ctx: AppContext, scope: Scope, id: string) {
  return productOf(ctx.db, scope, await getProductRow(ctx.db, scope, id));
}

export async function getProductByExternalId(ctx: AppContext, scope: Scope, externalId: string) {
  const row = await repo.findProductByExternalId(ctx.db, scope, externalId);
  if (!row) throw ApiError.notFound('product with external_id', externalId);
  return productOf(ctx.db, scope, row);
}

export async function listProducts(ctx: AppContext, scope: Scope, filters: repo.ProductFilters, page: CursorPageQuery) {
  const result = await repo.listProducts(ctx.db, scope, filters, page);
  const variants = await repo.variantsOf(ctx.db, scope, result.data.map((p) => p.id));
  return { ...result, data: result.data.map((row) => serializeProduct(row, variants)) };
}

const eventOfStatus = (from: ProductRow['status'], to: ProductRow['status']): ProductEventType =>
  from !== to && to === 'published' ? 'commerce.product.published' : from !== to && to === 'archived' ? 'commerce.product.archived' : 'commerce.product.updated';

/** Changes a product under its row lock; a published result must still be publishable. */
export async function updateProduct(ctx: AppContext, scope: Scope, id: string, input: UpdateProductInput): Promise<CommerceProduct> {
  const now = nowOf(ctx);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const current = await getProductRow(trx, scope, id, true);
      if (input.grants !== undefined) await checkGrants(trx, scope, current.kind, input.grants);
      if (current.kind !== 'digital' && (input.grant_duration_days != null || input.grant_limits != null)) {
        throw invalid('grants', 'Only digital products grant access.');
      }
      const status = input.status ?? current.status;
      const changes: Updateable<ProductsTable> = {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.description !== undefined && { description: input.description }),
        ...(input.status !== undefined && { status }),
        ...(input.currency !== undefined && { currency: input.currency }),
        ...(input.images !== undefined && { images: JSON.stringify(input.images) }),
        ...(input.grants !== undefined && { grants: JSON.stringify(input.grants) }),
        ...(input.grant_duration_days !== undefined && { grant_duration_days: input.grant_duration_days }),
        ...(input.grant_limits !== undefined && { grant_limits: JSON.stringify(grantLimitsColumn(input.grant_limits)) }),
        ...(input.max_per_order !== undefined && { max_per_order: input.max_per_order }),
        ...(input.external_id !== undefined && { external_id: input.external_id }),
        ...(input.metadata !== undefined && { metadata: JSON.stringify(input.metadata) }),
        ...(status === 'published' && current.status !== 'published' && { published_at: now }),
        updated_at: now,
      };
      const row = await repo.updateProduct(trx, scope, id, changes);
      const variants = await repo.variantsOf(trx, scope, [id]);
      // What an order reads of the product changed: orders read its variants again.
      stockFreed(ctx, variants.map((v) => v.id));
      if (status === 'published') checkPublishable(row, variants.filter((v) => v.active).length);
      const product = serializeProduct(row, variants);
      const previous = Object.fromEntries(Object.keys(input).map((k) => [k, serializeProduct(current, variants)[k as keyof CommerceProduct]]));
      return emitProductEvent(trx, scope, eventOfStatus(current.status, status), product, previous);
    });
  } catch (err) {
    throw uniqueViolationOf(err, { external_id: input.external_id }) ?? err;
  }
}

/** Emits `commerce.product.updated` for a change of one of its variants, inside that change's transaction. */
export async function productVariantsChanged(trx: Transaction<DB>, scope: Scope, productId: string) {
  const row = await getProductRow(trx, scope, productId);
  return emitProductEvent(trx, scope, 'commerce.product.updated', await productOf(trx, scope, row));
}

/** Variants by id with their products, for an order being made (read in the caller's executor). */
export async function productsAndVariants(db: Executor, scope: Scope, variantIds: readonly string[]) {
  const variantRows = variantIds.length > 0 ? await repo.findVariants(db, scope, variantIds) : [];
  const productRows = await repo.findProducts(db, scope, [...new Set(variantRows.map((v) => v.product_id))]);
  return { variants: new Map(variantRows.map((v) => [v.id, v])), products: new Map(productRows.map((p) => [p.id, p])) };
}

export type { LineProduct } from './products.repository';

/** Variants with what an order's lines need of their products, in one read (an order's plan). */
export const variantsWithProducts = (db: Executor, scope: Scope, variantIds: readonly string[]) => repo.findVariantsWithProducts(db, scope, variantIds);
