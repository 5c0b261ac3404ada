import type { CreateVariantInput } from '@svc/contract';
import type { Insertable } from 'kysely';
import type { ProductVariantsTable } from '../../../db/commerce.schema';
import { newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';

/** The row of a new variant: nothing reserved or sold yet. */
export function variantRow(scope: Scope, productId: string, v: CreateVariantInput, now: Date): Insertable<ProductVariantsTable> {
  return {
    id: newId('product_variant'),
    tenant_id: scope.tenantId,
    livemode: scope.livemode,
    product_id: productId,
    name: v.name,
    sku: v.sku,
    options: JSON.stringify(v.options ?? {}),
    price: v.price,
    stock: v.stock ?? null,
    active: v.active ?? true,
    created_at: now,
    updated_at: now,
  };
}
