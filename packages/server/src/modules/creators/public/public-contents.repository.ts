import type { CursorPageQuery } from '@svc/contract';
import { isIdOf } from '../../../core/ids';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { ContentRow } from '../../../db/creators.schema';

/** Published content of public capsules: everything the public may ever see of content. */
const published = (db: Executor, scope: Scope) =>
  scoped(db, scope)
    .selectFrom('contents')
    .innerJoin('capsule_profiles', 'capsule_profiles.organization_id', 'contents.organization_id')
    .selectAll('contents')
    .where('contents.status', '=', 'published')
    .where('capsule_profiles.is_public', '=', true);

export interface PublicFilters {
  organizationId?: string;
  type?: ContentRow['type'];
}

/** Listed content is also `visibility: public`; unlisted items are reached only by their id or slug. */
export async function listPublished(db: Executor, scope: Scope, filters: PublicFilters, page: CursorPageQuery) {
  let q = published(db, scope).where('contents.visibility', '=', 'public');
  if (filters.organizationId) q = q.where('contents.organization_id', '=', filters.organizationId);
  if (filters.type) q = q.where('contents.type', '=', filters.type);
  return paginate(q, 'contents.id', page);
}

export async function findPublished(db: Executor, scope: Scope, idOrSlug: string): Promise<ContentRow | undefined> {
  const q = published(db, scope);
  return (isIdOf('content', idOrSlug) ? q.where('contents.id', '=', idOrSlug) : q.where('contents.slug', '=', idOrSlug)).executeTakeFirst();
}

/** The newest listed items of one type of the organization. */
export async function latestPublished(db: Executor, scope: Scope, organizationId: string, type: ContentRow['type'], limit: number) {
  return published(db, scope)
    .where('contents.visibility', '=', 'public')
    .where('contents.organization_id', '=', organizationId)
    .where('contents.type', '=', type)
    .orderBy('contents.published_at', 'desc')
    .orderBy('contents.id', 'desc')
    .limit(limit)
    .execute();
}

/** How many listed items of each type the organization has published. */
export async function countPublishedByType(db: Executor, scope: Scope, organizationId: string) {
  const rows = await scoped(db, scope)
    .selectFrom('contents')
    .select(['type', (eb) => eb.fn.countAll<string>().as('n')])
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'published')
    .where('visibility', '=', 'public')
    .groupBy('type')
    .execute();
  const counts = { drop: 0, video: 0, post: 0 };
  for (const r of rows) counts[r.type] = Number(r.n);
  return counts;
}
