import type { CursorPageQuery } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import { readableOrganizations, type OrganizerCaller } from '../promoters-access';
import { promoterIdsOfOrganizations } from '../promoters/promoters.service';
import { listCommissions, type CommissionFilters } from './commissions.repository';
import { serializeCommission } from './commissions.serializer';

/** The ledger as the API lists it, narrowed to `promoters` when given. */
export async function listCommissionObjects(ctx: AppContext, scope: Scope, f: CommissionFilters, page: CursorPageQuery) {
  const listed = await listCommissions(ctx.db, scope, f, page);
  return { ...listed, data: listed.data.map(serializeCommission) };
}

/** `GET /v1/commissions`: a member sees the entries of the organizations whose promoters they may read. */
export async function listCommissionsFor(ctx: AppContext, caller: OrganizerCaller, f: Omit<CommissionFilters, 'promoters'>, page: CursorPageQuery) {
  const organizations = await readableOrganizations(ctx, caller);
  const promoters = organizations ? await promoterIdsOfOrganizations(ctx, caller.scope, organizations) : undefined;
  return listCommissionObjects(ctx, caller.scope, { ...f, promoters }, page);
}
