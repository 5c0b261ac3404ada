import { sql, type Transaction } from 'kysely';
import type { DB } from '../../../db/schema';
import type { CouponsTable } from '../../../db/ticketing.schema';
import type { Selectable } from 'kysely';
import { ApiError } from '../../../core/errors';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';

export type CouponRow = Selectable<CouponsTable>;

const invalid = (reason: string, message: string) => ApiError.of('coupon_invalid', { param: 'coupon_code', message, details: { reason } });

/** The event's coupon with this code (case-insensitive), if it may be used for this ticket type now; else `422 coupon_invalid`. */
export async function usableCoupon(db: Executor, scope: Scope, eventId: string, ticketTypeId: string, code: string, now: Date): Promise<CouponRow> {
  const coupon = await scoped(db, scope)
    .selectFrom('coupons')
    .selectAll()
    .where('event_id', '=', eventId)
    .where(sql<boolean>`lower(code) = lower(${code})`)
    .executeTakeFirst();
  if (!coupon || !coupon.active) throw invalid('unknown', 'No such coupon for this event.');
  if (coupon.valid_from && coupon.valid_from.getTime() > now.getTime()) throw invalid('not_yet_valid', 'This coupon is not valid yet.');
  if (coupon.valid_until && coupon.valid_until.getTime() <= now.getTime()) throw invalid('expired', 'This coupon has expired.');
  if (coupon.ticket_type_ids && !coupon.ticket_type_ids.includes(ticketTypeId)) {
    throw invalid('not_applicable', 'This coupon does not apply to this ticket type.');
  }
  if (coupon.max_uses !== null && coupon.uses_held + coupon.uses_redeemed >= coupon.max_uses) throw invalid('used_up', 'This coupon has been used up.');
  return coupon;
}

/** The discount on `total`: a percentage (rounded down) or a fixed amount, never more than the total. */
export const discountOf = (coupon: Pick<CouponRow, 'discount_type' | 'value'>, total: number) =>
  Math.min(total, coupon.discount_type === 'percent' ? Math.floor((total * Math.min(coupon.value, 100)) / 100) : coupon.value);

/** Reserves one use with one conditional update, as seats are held: `false` when the last use went meanwhile. */
export async function holdCouponUse(trx: Transaction<DB>, couponId: string): Promise<boolean> {
  const { numAffectedRows } = await sql`
    update coupons set uses_held = uses_held + 1, updated_at = now()
    where id = ${couponId} and (max_uses is null or uses_held + uses_redeemed + 1 <= max_uses)`.execute(trx);
  return Number(numAffectedRows ?? 0) === 1;
}

export async function redeemHeldCouponUse(trx: Transaction<DB>, couponId: string): Promise<void> {
  await sql`update coupons set uses_held = uses_held - 1, uses_redeemed = uses_redeemed + 1, updated_at = now() where id = ${couponId}`.execute(trx);
}

/** A use taken again as redeemed (a payment after expiry); `false` when the coupon has no use left. */
export async function takeRedeemedCouponUse(trx: Transaction<DB>, couponId: string): Promise<boolean> {
  const { numAffectedRows } = await sql`
    update coupons set uses_redeemed = uses_redeemed + 1, updated_at = now()
    where id = ${couponId} and (max_uses is null or uses_held + uses_redeemed + 1 <= max_uses)`.execute(trx);
  return Number(numAffectedRows ?? 0) === 1;
}

export async function releaseCouponUse(trx: Transaction<DB>, couponId: string, from: 'held' | 'redeemed'): Promise<void> {
  const column = sql.ref(from === 'held' ? 'uses_held' : 'uses_redeemed');
  await sql`update coupons set ${column} = ${column} - 1, updated_at = now() where id = ${couponId}`.execute(trx);
}
