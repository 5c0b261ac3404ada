import type { CreateCouponInput, CursorPageQuery, UpdateCouponInput } from '@svc/contract';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { newUuidV7 } from '../../../core/ids';
import { paginate, UUID_ANCHOR } from '../../../core/pagination';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { CouponsTable } from '../../../db/ticketing.schema';
import { eventFor } from '../events/events.service';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { promoterOrganization } from '../orders/order-listeners';
import { ticketTypesAmong } from '../ticket-types/ticket-types.service';
import { couponsQuery, findCouponRow, insertCoupon, updateCouponRow } from './coupons.repository';

type CouponRow = Selectable<CouponsTable>;
const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());
const invalid = (param: string, message: string) => ApiError.of('validation_failed', { param, message, details: { [param]: [message] } });

export function serializeCoupon(row: CouponRow) {
  return {
    id: row.id,
    object: 'coupon' as const,
    livemode: row.livemode,
    event: row.event_id,
    code: row.code,
    discount_type: row.discount_type,
    value: row.value,
    ticket_type_ids: row.ticket_type_ids,
    max_uses: row.max_uses,
    times_redeemed: row.uses_redeemed,
    valid_from: iso(row.valid_from),
    valid_until: iso(row.valid_until),
    active: row.active,
    promoter: row.promoter_id,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

interface CouponRules {
  discount_type: 'percent' | 'fixed';
  value: number;
  valid_from: Date | null;
  valid_until: Date | null;
  ticket_type_ids: string[] | null;
}

async function checkCoupon(db: Executor, scope: Scope, eventId: string, c: CouponRules) {
  if (c.discount_type === 'percent' && c.value > 100) throw invalid('value', 'A percent discount is 1 to 100.');
  if (c.valid_from && c.valid_until && c.valid_until.getTime() <= c.valid_from.getTime()) throw invalid('valid_until', 'Must be after valid_from.');
  if (c.ticket_type_ids) {
    const ids = [...new Set(c.ticket_type_ids.map((id) => id.toLowerCase()))];
    const found = await ticketTypesAmong(db, scope, eventId, ids);
    const missing = ids.find((id) => !found.includes(id));
    if (missing) throw invalid('ticket_type_ids', `No ticket type ${missing} in this event.`);
    c.ticket_type_ids = ids;
  }
}

/** A coupon binds a promoter of its event's organization only; `undefined` leaves the binding as it is. */
async function promoterOf(db: Executor, scope: Scope, organizationId: string, promoter: string | null | undefined) {
  if (promoter === undefined || promoter === null) return promoter;
  if ((await promoterOrganization(db, scope, promoter)) !== organizationId) throw invalid('promoter', `No promoter ${promoter} of this event's organization.`);
  return promoter;
}

const dateOrNull = (v: string | null | undefined) => (v ? new Date(v) : null);

export async function createCoupon(ctx: AppContext, caller: OrganizerCaller, ref: string, input: CreateCouponInput) {
  const { scope } = caller;
  const event = await eventFor(ctx, ctx.db, caller, ref, 'write');
  const rules: CouponRules = {
    discount_type: input.discount_type,
    value: input.value,
    valid_from: dateOrNull(input.valid_from),
    valid_until: dateOrNull(input.valid_until),
    ticket_type_ids: input.ticket_type_ids ?? null,
  };
  await checkCoupon(ctx.db, scope, event.id, rules);
  const promoterId = (await promoterOf(ctx.db, scope, event.organization_id, input.promoter)) ?? null;
  try {
    const row = await insertCoupon(ctx.db, scope, {
      ...rules,
      id: newUuidV7(),
      event_id: event.id,
      code: input.code,
      max_uses: input.max_uses ?? null,
      active: input.active ?? true,
      promoter_id: promoterId,
    });
    return serializeCoupon(row);
  } catch (err) {
    if (isUniqueViolation(err, 'coupons_code')) throw ApiError.of('coupon_code_taken', { param: 'code' });
    throw err;
  }
}

export async function listCoupons(ctx: AppContext, caller: OrganizerCaller, ref: string, page: CursorPageQuery) {
  const event = await eventFor(ctx, ctx.db, caller, ref, 'read');
  const result = await paginate(couponsQuery(ctx.db, caller.scope, event.id), 'coupons.id', page, UUID_ANCHOR);
  return { ...result, data: result.data.map(serializeCoupon) };
}

export async function updateCoupon(ctx: AppContext, caller: OrganizerCaller, ref: string, id: string, input: UpdateCouponInput) {
  const { scope } = caller;
  const row = await ctx.db.transaction().execute(async (trx) => {
    const event = await eventFor(ctx, trx, caller, ref, 'write');
    const current = await findCouponRow(trx, scope, event.id, id);
    if (!current) throw ApiError.notFound('coupon', id);
    const rules: CouponRules = {
      discount_type: input.discount_type ?? current.discount_type,
      value: input.value ?? current.value,
      valid_from: input.valid_from !== undefined ? dateOrNull(input.valid_from) : current.valid_from,
      valid_until: input.valid_until !== undefined ? dateOrNull(input.valid_until) : current.valid_until,
      ticket_type_ids: input.ticket_type_ids !== undefined ? input.ticket_type_ids : current.ticket_type_ids,
    };
    await checkCoupon(trx, scope, event.id, rules);
    const promoterId = await promoterOf(trx, scope, event.organization_id, input.promoter);
    const updated = await updateCouponRow(trx, scope, current.id, {
      ...rules,
      ...(input.max_uses !== undefined && { max_uses: input.max_uses }),
      ...(input.active !== undefined && { active: input.active }),
      ...(promoterId !== undefined && { promoter_id: promoterId }),
    });
    if (!updated) throw invalid('max_uses', 'Below the uses already held and redeemed.');
    return updated;
  });
  return serializeCoupon(row);
}
