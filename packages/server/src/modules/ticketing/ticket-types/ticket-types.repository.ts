import type { Insertable, Updateable } from 'kysely';
import { UUID_ANCHOR } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { TicketTypesTable } from '../../../db/ticketing.schema';

export async function insertTicketType(db: Executor, scope: Scope, values: Omit<Insertable<TicketTypesTable>, 'tenant_id' | 'livemode'>) {
  return scoped(db, scope).insertInto('ticket_types', values).returningAll().executeTakeFirstOrThrow();
}

export async function findTicketTypeRow(db: Executor, scope: Scope, eventId: string, id: string, lock = false) {
  if (!UUID_ANCHOR.test(id)) return undefined;
  let q = scoped(db, scope).selectFrom('ticket_types').selectAll().where('event_id', '=', eventId).where('id', '=', id);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function updateTicketTypeRow(db: Executor, scope: Scope, id: string, values: Updateable<TicketTypesTable>) {
  return scoped(db, scope)
    .updateTable('ticket_types')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const ticketTypesQuery = (db: Executor, scope: Scope, eventId: string) =>
  scoped(db, scope).selectFrom('ticket_types').selectAll().where('event_id', '=', eventId);

export async function ticketTypesOfEvents(db: Executor, scope: Scope, eventIds: readonly string[]) {
  if (eventIds.length === 0) return [];
  return scoped(db, scope).selectFrom('ticket_types').selectAll().where('event_id', 'in', eventIds).orderBy('position').orderBy('id').execute();
}

export async function ticketTypeIdsOf(db: Executor, scope: Scope, eventId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return (await scoped(db, scope).selectFrom('ticket_types').select('id').where('event_id', '=', eventId).where('id', 'in', ids).execute()).map((r) => r.id);
}
