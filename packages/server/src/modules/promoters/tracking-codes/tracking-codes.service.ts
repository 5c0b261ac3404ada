import type { CursorPageQuery, TrackingCode } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { newId } from '../../../core/ids';
import { UUID_ANCHOR } from '../../../core/pagination';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { TrackingCodeRow } from '../../../db/promoters.schema';
import { findTicketedEvent } from '../../ticketing';
import type { OrganizerCaller } from '../promoters-access';
import { getPromoterRow } from '../promoters/promoters.service';
import { linkOf, readSettings } from '../settings/settings.service';
import * as repo from './tracking-codes.repository';

const invalid = (param: string, message: string) => ApiError.of('validation_failed', { param, message, details: { [param]: [message] } });

export function serializeTrackingCode(row: TrackingCodeRow, linkTemplate: string | null): TrackingCode {
  const target = row.target_type && row.target_id ? { type: row.target_type, id: row.target_id } : null;
  return {
    id: row.id,
    object: 'tracking_code',
    livemode: row.livemode,
    promoter: row.promoter_id,
    code: row.code,
    target,
    active: row.active,
    clicks: row.clicks,
    orders: row.orders,
    url: linkOf(linkTemplate, row.code, target),
    created_at: row.created_at.toISOString(),
  };
}

export async function presentTrackingCodes(db: Executor, scope: Scope, rows: readonly TrackingCodeRow[]) {
  const { linkTemplate } = await readSettings(db, scope);
  return rows.map((r) => serializeTrackingCode(r, linkTemplate));
}

export async function createTrackingCode(ctx: AppContext, caller: OrganizerCaller, promoterId: string, input: { code: string; target?: { type: 'event' | 'product'; id: string } | null }) {
  const promoter = await getPromoterRow(ctx, caller, promoterId, 'promoters:write');
  if (input.target?.type === 'product') throw invalid('target.type', 'Products cannot be targeted on this deployment yet.');
  if (input.target) {
    const event = UUID_ANCHOR.test(input.target.id) ? await findTicketedEvent(ctx.db, caller.scope, input.target.id) : undefined;
    if (!event || event.organization_id !== promoter.organization_id) throw invalid('target.id', 'No such event of the promoter\'s organization.');
  }
  try {
    const row = await repo.insertTrackingCode(ctx.db, caller.scope, {
      id: newId('tracking_code'),
      promoter_id: promoter.id,
      code: input.code,
      target_type: input.target?.type ?? null,
      target_id: input.target?.id ?? null,
      active: true,
    });
    return (await presentTrackingCodes(ctx.db, caller.scope, [row]))[0]!;
  } catch (err) {
    if (isUniqueViolation(err, 'tracking_codes_scope_code')) throw ApiError.of('tracking_code_taken', { param: 'code' });
    throw err;
  }
}

export async function updateTrackingCode(ctx: AppContext, caller: OrganizerCaller, promoterId: string, id: string, active: boolean) {
  const promoter = await getPromoterRow(ctx, caller, promoterId, 'promoters:write');
  const row = await repo.findTrackingCode(ctx.db, caller.scope, promoter.id, id);
  if (!row) throw ApiError.notFound('tracking code', id);
  const updated = await repo.setTrackingCodeActive(ctx.db, caller.scope, row.id, active);
  return (await presentTrackingCodes(ctx.db, caller.scope, [updated]))[0]!;
}

export async function listTrackingCodesOf(ctx: AppContext, scope: Scope, promoterIds: readonly string[], page: CursorPageQuery) {
  const listed = await repo.listTrackingCodes(ctx.db, scope, promoterIds, page);
  return { ...listed, data: await presentTrackingCodes(ctx.db, scope, listed.data) };
}

export async function listTrackingCodes(ctx: AppContext, caller: OrganizerCaller, promoterId: string, page: CursorPageQuery) {
  const promoter = await getPromoterRow(ctx, caller, promoterId, 'promoters:read');
  return listTrackingCodesOf(ctx, caller.scope, [promoter.id], page);
}

/** One click per visitor, code and day (a public read with `?ref=`). */
export const countTrackingClick = (db: Executor, codeId: string, visitor: string, day: string) => repo.countClick(db, codeId, visitor, day);
