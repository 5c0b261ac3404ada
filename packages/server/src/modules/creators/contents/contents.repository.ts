import type { Insertable, Updateable } from 'kysely';
import type { CursorPageQuery } from '@svc/contract';
import { isIdOf } from '../../../core/ids';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { ContentApprovalsTable, ContentRow, ContentsTable } from '../../../db/creators.schema';

export type NewContent = Omit<Insertable<ContentsTable>, 'tenant_id' | 'livemode'>;

export async function insertContent(db: Executor, scope: Scope, row: NewContent): Promise<ContentRow> {
  return scoped(db, scope).insertInto('contents', row).returningAll().executeTakeFirstOrThrow();
}

/** A content item by its `cnt_` id or its slug, optionally within one organization, optionally locked. */
export async function findContent(db: Executor, scope: Scope, idOrSlug: string, opts: { organizationId?: string; forUpdate?: boolean } = {}) {
  let q = scoped(db, scope).selectFrom('contents').selectAll();
  q = isIdOf('content', idOrSlug) ? q.where('id', '=', idOrSlug) : q.where('slug', '=', idOrSlug);
  if (opts.organizationId) q = q.where('organization_id', '=', opts.organizationId);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function listOrganizationContents(db: Executor, scope: Scope, organizationId: string, status: ContentRow['status'] | undefined, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('contents').selectAll().where('organization_id', '=', organizationId);
  if (status) q = q.where('status', '=', status);
  return paginate(q, 'contents.id', page);
}

export async function updateContent(db: Executor, scope: Scope, id: string, changes: Updateable<ContentsTable>): Promise<ContentRow> {
  return scoped(db, scope)
    .updateTable('contents')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertApproval(db: Executor, scope: Scope, row: Omit<Insertable<ContentApprovalsTable>, 'tenant_id' | 'livemode'>) {
  await scoped(db, scope).insertInto('content_approvals', row).execute();
}

export async function listApprovals(db: Executor, scope: Scope, contentId: string) {
  return scoped(db, scope).selectFrom('content_approvals').selectAll().where('content_id', '=', contentId).orderBy('id').execute();
}
