import type { CursorPageQuery } from '@svc/contract';
import { sql } from 'kysely';
import type { Executor } from '../../../db/database';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';

const published = (db: Executor, scope: Scope) => scoped(db, scope).selectFrom('products').selectAll().where('status', '=', 'published');

export async function listPublishedProducts(db: Executor, scope: Scope, organizationId: string | undefined, page: CursorPageQuery) {
  let q = published(db, scope);
  if (organizationId) q = q.where('organization_id', '=', organizationId);
  return paginate(q, 'products.id', page);
}

export async function findPublishedProduct(db: Executor, scope: Scope, id: string) {
  return published(db, scope).where('id', '=', id).executeTakeFirst();
}

/** The organization's newest published products, and how many it has published. */
export async function latestPublished(db: Executor, scope: Scope, organizationId: string, limit: number) {
  const [rows, count] = await Promise.all([
    published(db, scope).where('organization_id', '=', organizationId).orderBy('published_at', 'desc').orderBy('id', 'desc').limit(limit).execute(),
    scoped(db, scope)
      .selectFrom('products')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('status', '=', 'published')
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, count: count.n };
}

/** Active variants of these products, in creation order. */
export async function activeVariantsOf(db: Executor, scope: Scope, productIds: readonly string[]) {
  if (productIds.length === 0) return [];
  return scoped(db, scope)
    .selectFrom('product_variants')
    .selectAll()
    .where('product_id', 'in', [...productIds])
    .where('active', '=', true)
    .orderBy('id')
    .execute();
}
