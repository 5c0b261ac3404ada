import { productOrganization } from '../../commerce';
import type { Assignment, CursorPageQuery } from '@svc/contract';
import { z } from 'zod';
import { CreateAssignmentSchema, UpdateAssignmentSchema } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { newId } from '../../../core/ids';
import { UUID_ANCHOR } from '../../../core/pagination';
import type { Scope } from '../../../core/scope';
import type { AssignmentRow, PromoterRow } from '../../../db/promoters.schema';
import { findTicketedEvent } from '../../ticketing';
import type { OrganizerCaller } from '../promoters-access';
import { getPromoterRow } from '../promoters/promoters.service';
import * as repo from './assignments.repository';

type Rule = z.infer<typeof CreateAssignmentSchema>['commission'];
const invalid = (param: string, message: string) => ApiError.of('validation_failed', { param, message, details: { [param]: [message] } });
const exists = () => ApiError.of('assignment_exists', { param: 'target', message: 'The promoter already has an active assignment to this target.' });

export function serializeAssignment(row: AssignmentRow): Assignment {
  return {
    id: row.id,
    object: 'promoter_assignment',
    livemode: row.livemode,
    promoter: row.promoter_id,
    target: { type: row.target_type, id: row.target_id },
    ticket_type_ids: row.ticket_type_ids,
    commission: { type: row.commission_type, basis_points: row.basis_points, amount: row.amount, max_per_order: row.max_per_order },
    active: row.active,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const ruleColumns = (rule: Rule) => ({
  commission_type: rule.type,
  basis_points: rule.type === 'percent' ? rule.basis_points : null,
  amount: rule.type === 'fixed' ? rule.amount : null,
  max_per_order: rule.max_per_order ?? null,
});

/** The target must be the promoter's organization's: an event or a product of it, or the organization itself. */
async function checkTarget(ctx: AppContext, scope: Scope, promoter: PromoterRow, target: { type: string; id: string }): Promise<string> {
  if (target.type === 'organization') {
    if (target.id !== promoter.organization_id) throw invalid('target.id', 'Must be the promoter\'s organization.');
    return target.id;
  }
  if (target.type === 'event') {
    const event = UUID_ANCHOR.test(target.id) ? await findTicketedEvent(ctx.db, scope, target.id) : undefined;
    if (!event || event.organization_id !== promoter.organization_id) throw invalid('target.id', 'No such event of the promoter\'s organization.');
    return event.id;
  }
  const product = await productOrganization(ctx.db, scope, target.id);
  if (!product || product.organizationId !== promoter.organization_id) throw invalid('target.id', 'No such product of the promoter\'s organization.');
  return product.id;
}

export async function createAssignment(ctx: AppContext, caller: OrganizerCaller, promoterId: string, input: z.infer<typeof CreateAssignmentSchema>) {
  const promoter = await getPromoterRow(ctx, caller, promoterId, 'promoters:write');
  const targetId = await checkTarget(ctx, caller.scope, promoter, input.target);
  if (input.ticket_type_ids && input.target.type !== 'event') throw invalid('ticket_type_ids', 'Only an event target is limited to ticket types.');
  try {
    const row = await repo.insertAssignment(ctx.db, caller.scope, {
      id: newId('promoter_assignment'),
      promoter_id: promoter.id,
      target_type: input.target.type,
      target_id: targetId,
      ticket_type_ids: input.ticket_type_ids ?? null,
      ...ruleColumns(input.commission),
      active: true,
    });
    return serializeAssignment(row);
  } catch (err) {
    if (isUniqueViolation(err, 'promoter_assignments_active_target')) throw exists();
    throw err;
  }
}

export async function updateAssignment(ctx: AppContext, caller: OrganizerCaller, promoterId: string, id: string, input: z.infer<typeof UpdateAssignmentSchema>) {
  const promoter = await getPromoterRow(ctx, caller, promoterId, 'promoters:write');
  const row = await repo.findAssignment(ctx.db, caller.scope, promoter.id, id);
  if (!row) throw ApiError.notFound('promoter assignment', id);
  if (input.ticket_type_ids && row.target_type !== 'event') throw invalid('ticket_type_ids', 'Only an event target is limited to ticket types.');
  try {
    const updated = await repo.updateAssignment(ctx.db, caller.scope, row.id, {
      ...(input.commission && ruleColumns(input.commission)),
      ...(input.ticket_type_ids !== undefined && { ticket_type_ids: input.ticket_type_ids }),
      ...(input.active !== undefined && { active: input.active }),
    });
    return serializeAssignment(updated);
  } catch (err) {
    if (isUniqueViolation(err, 'promoter_assignments_active_target')) throw exists();
    throw err;
  }
}

export async function listAssignments(ctx: AppContext, caller: OrganizerCaller, promoterId: string, page: CursorPageQuery) {
  const promoter = await getPromoterRow(ctx, caller, promoterId, 'promoters:read');
  const listed = await repo.listAssignments(ctx.db, caller.scope, promoter.id, page);
  return { ...listed, data: listed.data.map(serializeAssignment) };
}
