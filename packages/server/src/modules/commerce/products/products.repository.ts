import type { CursorPageQuery, ProductKind, ProductStatus } from '@svc/contract';
import { sql, type Insertable, type Updateable } from 'kysely';
import type { ProductRow, ProductsTable, ProductVariantsTable, VariantRow } from '../../../db/commerce.schema';
import type { Executor } from '../../../db/database';
import { paginate, whereMetadata } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';

export async function findProduct(db: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}) {
  let q = scoped(db, scope).selectFrom('products').selectAll().where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findProductByExternalId(db: Executor, scope: Scope, externalId: string) {
  return scoped(db, scope).selectFrom('products').selectAll().where('external_id', '=', externalId).executeTakeFirst();
}

export interface ProductFilters {
  organization?: string;
  /** The organizations a member may read; `null` for every one. */
  organizations?: string[] | null;
  status?: ProductStatus;
  kind?: ProductKind;
  metadata?: Record<string, string>;
}

export async function listProducts(db: Executor, scope: Scope, filters: ProductFilters, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('products').selectAll();
  if (filters.organization) q = q.where('organization_id', '=', filters.organization);
  if (filters.organizations) q = filters.organizations.length > 0 ? q.where('organization_id', 'in', filters.organizations) : q.where(sql<boolean>`false`);
  if (filters.status) q = q.where('status', '=', filters.status);
  if (filters.kind) q = q.where('kind', '=', filters.kind);
  q = whereMetadata(q, 'products.metadata', filters.metadata);
  return paginate(q, 'products.id', page);
}

export async function insertProduct(db: Executor, row: Insertable<ProductsTable>) {
  return db.insertInto('products').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateProduct(db: Executor, scope: Scope, id: string, changes: Updateable<ProductsTable>) {
  return scoped(db, scope).updateTable('products').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** The variants of these products, in creation order. */
export async function variantsOf(db: Executor, scope: Scope, productIds: readonly string[]): Promise<VariantRow[]> {
  if (productIds.length === 0) return [];
  return scoped(db, scope).selectFrom('product_variants').selectAll().where('product_id', 'in', [...productIds]).orderBy('id').execute();
}

export async function countVariants(db: Executor, scope: Scope, productId: string) {
  const { n } = await scoped(db, scope)
    .selectFrom('product_variants')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('product_id', '=', productId)
    .executeTakeFirstOrThrow();
  return n;
}

export async function findVariant(db: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}) {
  let q = scoped(db, scope).selectFrom('product_variants').selectAll().where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function insertVariants(db: Executor, rows: Insertable<ProductVariantsTable>[]) {
  if (rows.length === 0) return [];
  return db.insertInto('product_variants').values(rows).returningAll().execute();
}

/**
 * Changes a variant. A new `stock` is written only if it still covers what pending orders hold, in the same
 * statement, so a reservation made meanwhile is either counted or makes the update miss (`undefined`).
 */
export async function updateVariant(db: Executor, scope: Scope, id: string, changes: Updateable<ProductVariantsTable>) {
  let q = scoped(db, scope).updateTable('product_variants').set(changes).where('id', '=', id);
  if (typeof changes.stock === 'number') q = q.where('reserved', '<=', changes.stock);
  return q.returningAll().executeTakeFirst();
}

/** Which of these SKUs another variant of the environment uses, compared without case (lower case). */
export async function takenSkus(db: Executor, scope: Scope, skus: readonly string[], exceptVariant?: string): Promise<Set<string>> {
  if (skus.length === 0) return new Set();
  let q = scoped(db, scope)
    .selectFrom('product_variants')
    .select(sql<string>`lower(sku)`.as('sku'))
    .where(sql<string>`lower(sku)`, 'in', skus.map((s) => s.toLowerCase()));
  if (exceptVariant) q = q.where('id', '<>', exceptVariant);
  return new Set((await q.execute()).map((r) => r.sku));
}

export async function findVariants(db: Executor, scope: Scope, ids: readonly string[]): Promise<VariantRow[]> {
  if (ids.length === 0) return [];
  return scoped(db, scope).selectFrom('product_variants').selectAll().where('id', 'in', [...ids]).execute();
}

export async function findProducts(db: Executor, scope: Scope, ids: readonly string[]): Promise<ProductRow[]> {
  if (ids.length === 0) return [];
  return scoped(db, scope).selectFrom('products').selectAll().where('id', 'in', [...ids]).execute();
}

/** What an order's line needs of a variant's product. */
export type LineProduct = Pick<ProductRow, 'id' | 'name' | 'kind' | 'status' | 'organization_id' | 'currency' | 'max_per_order'>;

/**
 * Variants with what an order's lines need of their products, in one read: an order's plan (and a rush's every
 * refusal, decided from it) costs one round trip, not two.
 */
export async function findVariantsWithProducts(db: Executor, scope: Scope, ids: readonly string[]): Promise<Array<{ variant: VariantRow; product: LineProduct }>> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('product_variants as v')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .selectAll('v')
    .select(['p.name as p_name', 'p.kind as p_kind', 'p.status as p_status', 'p.organization_id as p_organization_id', 'p.currency as p_currency', 'p.max_per_order as p_max_per_order'])
    .where('v.tenant_id', '=', scope.tenantId)
    .where('v.livemode', '=', scope.livemode)
    .where('v.id', 'in', [...ids])
    .execute();
  return rows.map(({ p_name, p_kind, p_status, p_organization_id, p_currency, p_max_per_order, ...variant }) => ({
    variant,
    product: { id: variant.product_id, name: p_name, kind: p_kind, status: p_status, organization_id: p_organization_id, currency: p_currency, max_per_order: p_max_per_order },
  }));
}
