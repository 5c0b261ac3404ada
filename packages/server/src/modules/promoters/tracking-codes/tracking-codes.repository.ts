import type { CursorPageQuery } from '@svc/contract';
import { sql, type Insertable } from 'kysely';
import { isIdOf } from '../../../core/ids';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { TrackingCodeRow, TrackingCodesTable } from '../../../db/promoters.schema';

export async function findTrackingCode(db: Executor, scope: Scope, promoterId: string, id: string): Promise<TrackingCodeRow | undefined> {
  if (!isIdOf('tracking_code', id)) return undefined;
  return scoped(db, scope).selectFrom('tracking_codes').selectAll().where('promoter_id', '=', promoterId).where('id', '=', id).executeTakeFirst();
}

export const insertTrackingCode = (db: Executor, scope: Scope, values: Omit<Insertable<TrackingCodesTable>, 'tenant_id' | 'livemode'>) =>
  scoped(db, scope).insertInto('tracking_codes', values).returningAll().executeTakeFirstOrThrow();

export const setTrackingCodeActive = (db: Executor, scope: Scope, id: string, active: boolean) =>
  scoped(db, scope).updateTable('tracking_codes').set({ active }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

export const listTrackingCodes = (db: Executor, scope: Scope, promoterIds: readonly string[], page: CursorPageQuery) =>
  paginate(scoped(db, scope).selectFrom('tracking_codes').selectAll().where('promoter_id', 'in', promoterIds.length ? promoterIds : ['']), 'tracking_codes.id', page);

/** One click per visitor, code and day; answers whether this one counted. */
export async function countClick(db: Executor, codeId: string, visitor: string, day: string): Promise<boolean> {
  const { rows } = await sql<{ counted: boolean }>`
    with fresh as (
      insert into tracking_code_clicks (tracking_code_id, visitor, day) values (${codeId}, ${visitor}, ${day}::date)
      on conflict do nothing returning 1
    )
    update tracking_codes set clicks = clicks + 1 where id = ${codeId} and exists (select 1 from fresh) returning true as counted`.execute(db);
  return rows.length > 0;
}
