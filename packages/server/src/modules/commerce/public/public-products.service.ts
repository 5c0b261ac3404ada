import type { CursorPageQuery, PublicProduct } from '@svc/contract';
import type { ProductRow, VariantRow } from '../../../db/commerce.schema';
import type { OrganizationRow } from '../../identity';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import { findOrganizationByHandle, findOrganizationsByIds } from '../../identity';
import * as repo from './public-products.repository';

const FEATURED_MERCH = 6;

/** A unit can be ordered: unlimited, or some stock not held by pending orders. Never the figure itself. */
const canOrder = (v: VariantRow) => v.stock === null || v.stock - v.reserved > 0;

function serializePublicProduct(row: ProductRow, variants: readonly VariantRow[], org: OrganizationRow): PublicProduct {
  const own = variants.filter((v) => v.product_id === row.id);
  return {
    id: row.id,
    object: 'product',
    name: row.name,
    description: row.description,
    kind: row.kind,
    images: row.images,
    currency: row.currency,
    price_from: own.length > 0 ? Math.min(...own.map((v) => v.price)) : null,
    variants: own.map((v) => ({ id: v.id, name: v.name, options: v.options, price: v.price, available: canOrder(v) })),
    organization: { id: org.id, name: org.name, handle: org.handle },
  };
}

async function serializeAll(ctx: AppContext, scope: Scope, rows: readonly ProductRow[]) {
  const [variants, orgs] = await Promise.all([
    repo.activeVariantsOf(ctx.db, scope, rows.map((r) => r.id)),
    findOrganizationsByIds(ctx.db, scope, [...new Set(rows.map((r) => r.organization_id))]),
  ]);
  const orgOf = new Map(orgs.map((o) => [o.id, o]));
  return rows.flatMap((r) => {
    const org = orgOf.get(r.organization_id);
    return org ? [serializePublicProduct(r, variants, org)] : [];
  });
}

/** `organization` is an `org_` id or a handle; an unknown one lists nothing. */
async function organizationIdOf(ctx: AppContext, scope: Scope, organization: string | undefined): Promise<string | undefined> {
  if (organization === undefined || isIdOf('organization', organization)) return organization;
  return (await findOrganizationByHandle(ctx.db, scope, organization))?.id ?? 'org_none';
}

export async function listPublicProducts(ctx: AppContext, scope: Scope, organization: string | undefined, page: CursorPageQuery) {
  const result = await repo.listPublishedProducts(ctx.db, scope, await organizationIdOf(ctx, scope, organization), page);
  return { ...result, data: await serializeAll(ctx, scope, result.data) };
}

export async function getPublicProduct(ctx: AppContext, scope: Scope, id: string): Promise<PublicProduct> {
  const row = isIdOf('product', id) ? await repo.findPublishedProduct(ctx.db, scope, id) : undefined;
  const [product] = row ? await serializeAll(ctx, scope, [row]) : [];
  if (!product) throw ApiError.notFound('product', id);
  return product;
}

/** The capsule's merch (products-api § 3.6): up to 6 newest published products, or `null`, and the count. */
export async function capsuleMerch(ctx: AppContext, scope: Scope, organizationId: string): Promise<{ featured: PublicProduct[] | null; count: number }> {
  const { rows, count } = await repo.latestPublished(ctx.db, scope, organizationId, FEATURED_MERCH);
  const featured = await serializeAll(ctx, scope, rows);
  return { featured: featured.length > 0 ? featured : null, count };
}
