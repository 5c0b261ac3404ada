import type { Insertable } from 'kysely';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { EventSlotsTable } from '../../../db/ticketing.schema';

export async function insertSlot(db: Executor, scope: Scope, values: Omit<Insertable<EventSlotsTable>, 'tenant_id' | 'livemode'>) {
  return scoped(db, scope).insertInto('event_slots', values).returningAll().executeTakeFirstOrThrow();
}

export const slotsQuery = (db: Executor, scope: Scope, eventId: string) =>
  scoped(db, scope).selectFrom('event_slots').selectAll().where('event_id', '=', eventId);

export async function slotsOfEvents(db: Executor, scope: Scope, eventIds: readonly string[]) {
  if (eventIds.length === 0) return [];
  return scoped(db, scope).selectFrom('event_slots').selectAll().where('event_id', 'in', eventIds).orderBy('starts_at').orderBy('id').execute();
}
