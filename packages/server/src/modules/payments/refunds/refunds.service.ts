import type { CursorPageQuery, Refund } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import { findRefund, listRefunds, type RefundFilters } from './refunds.repository';
import { serializeRefund } from './refunds.serializer';

export type { RefundRow } from './refunds.repository';
// Reconciliation takes the due ones.
export { lockDueRefunds, scheduleRefundCheck } from './refunds.repository';

export async function listRefundObjects(db: Executor, scope: Scope, filters: RefundFilters, page: CursorPageQuery) {
  const result = await listRefunds(db, scope, filters, page);
  return { ...result, data: result.data.map(serializeRefund) };
}

export async function retrieveRefund(ctx: AppContext, scope: Scope, id: string): Promise<Refund> {
  const row = isIdOf('refund', id) ? await findRefund(ctx.db, scope, id) : undefined;
  if (!row) throw ApiError.notFound('refund', id);
  return serializeRefund(row);
}
