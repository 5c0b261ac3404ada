import { sql, type Insertable, type Updateable } from 'kysely';
import { UUID_ANCHOR } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { CouponsTable } from '../../../db/ticketing.schema';

export async function insertCoupon(db: Executor, scope: Scope, values: Omit<Insertable<CouponsTable>, 'tenant_id' | 'livemode'>) {
  return scoped(db, scope).insertInto('coupons', values).returningAll().executeTakeFirstOrThrow();
}

export async function findCouponRow(db: Executor, scope: Scope, eventId: string, id: string) {
  if (!UUID_ANCHOR.test(id)) return undefined;
  return scoped(db, scope).selectFrom('coupons').selectAll().where('event_id', '=', eventId).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The update, unless `max_uses` would fall below the uses held and redeemed (then `undefined`). */
export async function updateCouponRow(db: Executor, scope: Scope, id: string, values: Updateable<CouponsTable>) {
  let q = scoped(db, scope).updateTable('coupons').set({ ...values, updated_at: new Date() }).where('id', '=', id);
  if (values.max_uses !== undefined && values.max_uses !== null) q = q.where(sql<boolean>`uses_held + uses_redeemed <= ${values.max_uses}`);
  return q.returningAll().executeTakeFirst();
}

export const couponsQuery = (db: Executor, scope: Scope, eventId: string) =>
  scoped(db, scope).selectFrom('coupons').selectAll().where('event_id', '=', eventId);
