import { COMMERCE_LIMITS, type CreateVariantInput, type ProductVariant, type UpdateVariantInput } from '@svc/contract';
import type { Updateable } from 'kysely';
import type { ProductVariantsTable, VariantRow } from '../../../db/commerce.schema';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import { nowOf } from '../commerce-access';
import { invalid, skuTaken } from './product-rules';
import * as repo from './products.repository';
import { serializeVariant } from './products.serializer';
import { getProductRow, productVariantsChanged, uniqueViolationOf } from './products.service';
import { stockFreed } from '../stock/sold-out-variants';
import { variantRow } from './variant-rows';

export async function getVariantRow(ctx: AppContext, scope: Scope, id: string): Promise<VariantRow> {
  const row = isIdOf('product_variant', id) ? await repo.findVariant(ctx.db, scope, id) : undefined;
  if (!row) throw ApiError.notFound('variant', id);
  return row;
}

/** Adds a variant under the product's row lock, so two adds cannot pass the limit together. */
export async function createVariant(ctx: AppContext, scope: Scope, productId: string, input: CreateVariantInput): Promise<ProductVariant> {
  const now = nowOf(ctx);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      await getProductRow(trx, scope, productId, true);
      if ((await repo.countVariants(trx, scope, productId)) >= COMMERCE_LIMITS.variants) {
        throw invalid('variants', `A product has at most ${COMMERCE_LIMITS.variants} variants.`);
      }
      if ((await repo.takenSkus(trx, scope, [input.sku])).size > 0) throw skuTaken(input.sku);
      const [row] = await repo.insertVariants(trx, [variantRow(scope, productId, input, now)]);
      await productVariantsChanged(trx, scope, productId);
      return serializeVariant(row!);
    });
  } catch (err) {
    throw uniqueViolationOf(err, { sku: input.sku }) ?? err;
  }
}

/**
 * Changes a variant. A `stock` below what pending orders hold is refused by the update's own condition, so an
 * order reserving at the same moment is either counted or makes this answer `422`.
 */
export async function updateVariant(ctx: AppContext, scope: Scope, id: string, input: UpdateVariantInput): Promise<ProductVariant> {
  const now = nowOf(ctx);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const current = isIdOf('product_variant', id) ? await repo.findVariant(trx, scope, id) : undefined;
      if (!current) throw ApiError.notFound('variant', id);
      if (input.sku !== undefined && (await repo.takenSkus(trx, scope, [input.sku], id)).size > 0) throw skuTaken(input.sku);
      const changes: Updateable<ProductVariantsTable> = {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.sku !== undefined && { sku: input.sku }),
        ...(input.options !== undefined && { options: JSON.stringify(input.options) }),
        ...(input.price !== undefined && { price: input.price }),
        ...(input.stock !== undefined && { stock: input.stock }),
        ...(input.active !== undefined && { active: input.active }),
        updated_at: now,
      };
      const row = await repo.updateVariant(trx, scope, id, changes);
      if (!row) {
        const held = (await repo.findVariant(trx, scope, id))?.reserved ?? 0;
        throw invalid('stock', `Pending orders hold ${held} units: stock cannot go below that.`);
      }
      // Its stock may have grown, or what an order reads of it changed: orders read it again.
      stockFreed(ctx, [id]);
      await productVariantsChanged(trx, scope, row.product_id);
      return serializeVariant(row);
    });
  } catch (err) {
    throw uniqueViolationOf(err, { sku: input.sku }) ?? err;
  }
}
