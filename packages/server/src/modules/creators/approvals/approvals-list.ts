import type { ContentStatus } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { scoped, type Scope } from '../../../core/scope';
import { approvalRecords } from './approval-records';
import { pageLinks } from './page-links';

export interface ApprovalsQuery {
  status: ContentStatus;
  page: number;
  per_page: number;
}

/** The review queue: content of one status, the longest waiting first (never submitted: by creation). */
export async function listApprovals(ctx: AppContext, scope: Scope, query: ApprovalsQuery) {
  const base = scoped(ctx.db, scope).selectFrom('contents').where('status', '=', query.status);
  const [{ total }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('submitted_at', (ob) => ob.asc().nullsLast())
      .orderBy('id', 'asc')
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page)
      .execute(),
  ]);
  const path = `${ctx.config.baseUrl}/v1/tenant/admin/plus/approvals`;
  const urlOf = (page: number) => `${path}?${new URLSearchParams({ status: query.status, per_page: String(query.per_page), page: String(page) })}`;
  return pageLinks(await approvalRecords(ctx, scope, rows), { page: query.page, perPage: query.per_page, total: Number(total), path, urlOf });
}
