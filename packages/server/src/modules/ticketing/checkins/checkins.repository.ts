import type { Checkin, CursorPageQuery } from '@svc/contract';
import { paginate, UUID_ANCHOR } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';

const withAttendee = (db: Executor, scope: Scope) =>
  scoped(db, scope)
    .selectFrom('checkins')
    .leftJoin('tickets', 'tickets.id', 'checkins.ticket_id')
    .selectAll('checkins')
    .select('tickets.attendee_id');

export type CheckinRow = Awaited<ReturnType<ReturnType<typeof withAttendee>['executeTakeFirstOrThrow']>>;

export const findCheckin = (db: Executor, scope: Scope, id: string) => withAttendee(db, scope).where('checkins.id', '=', id).executeTakeFirst();

export const findCheckinByNonce = (db: Executor, scope: Scope, eventId: string, nonce: string) =>
  withAttendee(db, scope).where('checkins.event_id', '=', eventId).where('checkins.nonce', '=', nonce).executeTakeFirst();

export const checkinsOfTicket = (db: Executor, scope: Scope, ticketId: string, limit = 50) =>
  withAttendee(db, scope).where('checkins.ticket_id', '=', ticketId).orderBy('checkins.id', 'desc').limit(limit).execute();

export const listCheckins = (db: Executor, scope: Scope, eventId: string, page: CursorPageQuery) =>
  paginate(withAttendee(db, scope), 'checkins.id', page, UUID_ANCHOR, { column: 'checkins.event_id', value: eventId, idsInIndex: 'desc' });

export function serializeCheckin(row: CheckinRow): Checkin {
  return {
    id: row.id,
    object: 'checkin',
    type: row.type,
    status: row.status,
    reason: row.reason,
    ticket: row.ticket_id,
    attendee: row.attendee_id ?? null,
    nonce: row.nonce,
    forced: row.forced,
    scanned_at: new Date(row.scanned_at).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
  };
}
