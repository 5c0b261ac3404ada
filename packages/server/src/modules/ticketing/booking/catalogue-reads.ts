import type { Selectable } from 'kysely';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { EventSlotsTable, TicketedEventsTable, TicketTypesTable } from '../../../db/ticketing.schema';

export type EventRow = Selectable<TicketedEventsTable>;
export type TicketTypeRow = Selectable<TicketTypesTable>;
export type SlotRow = Selectable<EventSlotsTable>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

/** An event by its slug or uuid (path `{event}`). */
export async function findEventByRef(db: Executor, scope: Scope, ref: string): Promise<EventRow | undefined> {
  const q = scoped(db, scope).selectFrom('ticketed_events').selectAll();
  return (isUuid(ref) ? q.where((eb) => eb.or([eb('id', '=', ref), eb('slug', '=', ref)])) : q.where('slug', '=', ref)).executeTakeFirst();
}

export const findEventById = (db: Executor, scope: Scope, id: string) =>
  scoped(db, scope).selectFrom('ticketed_events').selectAll().where('id', '=', id).executeTakeFirst();

export const findTicketType = (db: Executor, scope: Scope, eventId: string, id: string) =>
  scoped(db, scope).selectFrom('ticket_types').selectAll().where('event_id', '=', eventId).where('id', '=', id).executeTakeFirst();

export const findSlot = (db: Executor, scope: Scope, eventId: string, id: string) =>
  scoped(db, scope).selectFrom('event_slots').selectAll().where('event_id', '=', eventId).where('id', '=', id).executeTakeFirst();

export async function eventHasSlots(db: Executor, scope: Scope, eventId: string): Promise<boolean> {
  const row = await scoped(db, scope).selectFrom('event_slots').select('id').where('event_id', '=', eventId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** A row read as JSON (`to_json`), its timestamps made dates again, as the driver gives them for a plain select. */
function withDates<T>(row: Record<string, unknown>, keys: readonly string[]): T {
  for (const key of keys) if (typeof row[key] === 'string') row[key] = new Date(row[key] as string);
  return row as T;
}

export const eventFromJson = (row: Record<string, unknown>) =>
  withDates<EventRow>(row, ['starts_at', 'ends_at', 'published_at', 'cancelled_at', 'created_at', 'updated_at']);
export const ticketTypeFromJson = (row: Record<string, unknown>) => withDates<TicketTypeRow>(row, ['sale_starts_at', 'sale_ends_at', 'created_at', 'updated_at']);
export const slotFromJson = (row: Record<string, unknown>) => withDates<SlotRow>(row, ['starts_at', 'ends_at', 'created_at']);
