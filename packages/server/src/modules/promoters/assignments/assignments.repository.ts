import type { CursorPageQuery } from '@svc/contract';
import type { Insertable, Updateable } from 'kysely';
import { isIdOf } from '../../../core/ids';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { AssignmentRow, PromoterAssignmentsTable } from '../../../db/promoters.schema';

export async function findAssignment(db: Executor, scope: Scope, promoterId: string, id: string): Promise<AssignmentRow | undefined> {
  if (!isIdOf('promoter_assignment', id)) return undefined;
  return scoped(db, scope).selectFrom('promoter_assignments').selectAll().where('promoter_id', '=', promoterId).where('id', '=', id).executeTakeFirst();
}

export const findAssignmentById = (db: Executor, scope: Scope, id: string) =>
  scoped(db, scope).selectFrom('promoter_assignments').selectAll().where('id', '=', id).executeTakeFirst();

export const insertAssignment = (db: Executor, scope: Scope, values: Omit<Insertable<PromoterAssignmentsTable>, 'tenant_id' | 'livemode'>) =>
  scoped(db, scope).insertInto('promoter_assignments', values).returningAll().executeTakeFirstOrThrow();

export const updateAssignment = (db: Executor, scope: Scope, id: string, values: Updateable<PromoterAssignmentsTable>) =>
  scoped(db, scope).updateTable('promoter_assignments').set({ ...values, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

export const listAssignments = (db: Executor, scope: Scope, promoterId: string, page: CursorPageQuery) =>
  paginate(scoped(db, scope).selectFrom('promoter_assignments').selectAll().where('promoter_id', '=', promoterId), 'promoter_assignments.id', page);
