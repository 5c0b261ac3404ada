import type { OrganizerAttendee } from '@svc/contract';
import { sql, type SelectQueryBuilder } from 'kysely';
import { withinParent } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';

/** Waiting for review: marked so, or never reviewed while the event or its ticket type asks for review. */
export const reviewSql = sql<'pending' | 'approved' | 'rejected' | null>`coalesce(tickets.review_status,
  case when ticketed_events.requires_approval or ticket_types.requires_approval then 'pending' end)`;

/** The organizer's status of an attendee (the definition), computed where the rows are read. */
export const attendeeStatusSql = sql<OrganizerAttendee['status']>`case
  when orders.status in ('expired', 'cancelled', 'refunded') or tickets.status = 'void' or tickets.review_status = 'rejected' then 'cancelled'
  when orders.status = 'pending' then 'pending'
  when ${reviewSql} = 'pending' then 'pending'
  else 'confirmed' end`;


/** Every attendee (ticket) of the scope, with its order, ticket type and event, and the derived statuses. */
export function attendeeRows(db: Executor, scope: Scope) {
  return scoped(db, scope)
    .selectFrom('tickets')
    .innerJoin('orders', 'orders.id', 'tickets.order_id')
    .innerJoin('ticket_types', 'ticket_types.id', 'tickets.ticket_type_id')
    .innerJoin('ticketed_events', 'ticketed_events.id', 'tickets.event_id')
    .select([
      'tickets.id',
      'tickets.attendee_id',
      'tickets.livemode',
      'tickets.first_name',
      'tickets.last_name',
      'tickets.email',
      'tickets.phone',
      'tickets.status as ticket_status',
      'tickets.slot_id',
      'tickets.extra_data',
      'tickets.review_reason',
      'tickets.reviewed_at',
      'tickets.invite_status',
      'tickets.ticket_delivery_status',
      'tickets.resent_at',
      'tickets.created_at',
      'tickets.order_id',
      'orders.code as order_code',
      'orders.status as order_status',
      'orders.comp',
      'ticket_types.id as ticket_type_id',
      'ticket_types.name as ticket_type_name',
      'ticket_types.extra_fields',
    ])
    .select([attendeeStatusSql.as('status'), reviewSql.as('review_status'), 'tickets.checked_in']);
}

/** Every attendee (ticket) of an event. */
export const attendeesOf = (db: Executor, scope: Scope, eventId: string) => attendeeRows(db, scope).where('tickets.event_id', '=', eventId);

/** One event's tickets in ticket order, from a keyset position, for a query of `attendeeRows` (see `withinParent`). */
export const inEventOrder = <Q extends SelectQueryBuilder<any, any, any>>(query: Q, eventId: string, order: 'asc' | 'desc', past: string | null) =>
  withinParent(query, { column: 'tickets.event_id', value: eventId }, 'tickets.id', order, past ?? undefined);

export type AttendeeRow = Awaited<ReturnType<ReturnType<typeof attendeesOf>['executeTakeFirstOrThrow']>>;

export const findAttendee = (db: Executor, scope: Scope, eventId: string, attendeeId: string) =>
  attendeesOf(db, scope, eventId).where('tickets.attendee_id', '=', attendeeId).executeTakeFirst();

/** Locks the attendee's ticket row, so reviews, resends and scans of one attendee take turns. */
export const lockTicket = (db: Executor, scope: Scope, ticketId: string) =>
  scoped(db, scope).selectFrom('tickets').select('id').where('id', '=', ticketId).forUpdate().executeTakeFirst();

const iso = (d: Date | string) => new Date(d).toISOString();

export function serializeAttendee(row: AttendeeRow): OrganizerAttendee {
  return {
    id: row.attendee_id,
    object: 'attendee',
    livemode: row.livemode,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone: row.phone,
    status: row.status,
    review_status: row.review_status,
    ticket: { id: row.id, status: row.ticket_status },
    ticket_type: { id: row.ticket_type_id, name: row.ticket_type_name },
    order: { id: row.order_id, code: row.order_code, status: row.order_status },
    comp: row.comp,
    invite_status: row.invite_status,
    ticket_delivery_status: row.ticket_delivery_status,
    checked_in: row.checked_in,
    created_at: iso(row.created_at),
  };
}
