import type { CommerceProduct, ProductVariant } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { ProductRow, VariantRow } from '../../../db/commerce.schema';
import type { DB } from '../../../db/schema';
import { emitEvent } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function serializeVariant(row: VariantRow): ProductVariant {
  return {
    id: row.id,
    object: 'product_variant',
    livemode: row.livemode,
    product: row.product_id,
    name: row.name,
    sku: row.sku,
    options: row.options,
    price: row.price,
    stock: row.stock,
    reserved: row.reserved,
    available: row.stock === null ? null : row.stock - row.reserved,
    sold: row.sold,
    active: row.active,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

export function serializeProduct(row: ProductRow, variants: readonly VariantRow[]): CommerceProduct {
  return {
    id: row.id,
    object: 'product',
    livemode: row.livemode,
    organization: row.organization_id,
    name: row.name,
    description: row.description,
    kind: row.kind,
    status: row.status,
    currency: row.currency,
    images: row.images,
    variants: variants.filter((v) => v.product_id === row.id).map(serializeVariant),
    grants: row.grants,
    grant_duration_days: row.grant_duration_days,
    grant_limits: row.grant_limits ?? null,
    max_per_order: row.max_per_order,
    published_at: iso(row.published_at),
    external_id: row.external_id,
    metadata: row.metadata,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

export type ProductEventType = 'commerce.product.created' | 'commerce.product.updated' | 'commerce.product.published' | 'commerce.product.archived';

/** Records a product event in the transaction that made the change; answers the product as shown. */
export async function emitProductEvent(
  trx: Transaction<DB>,
  scope: Scope,
  type: ProductEventType,
  product: CommerceProduct,
  previousAttributes?: Record<string, unknown>,
): Promise<CommerceProduct> {
  await emitEvent(trx, scope, { type, subject: product.id, object: product, previousAttributes });
  return product;
}
