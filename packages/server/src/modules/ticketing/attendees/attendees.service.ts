import type { OrganizerAttendee, OrganizerAttendeeDetail } from '@svc/contract';
import { sql } from 'kysely';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import { UUID_ANCHOR } from '../../../core/pagination';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import { checkinsOfTicket, serializeCheckin } from '../checkins/checkin-rows.service';
import { eventFor } from '../events/events.service';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { attendeeRows, attendeesOf, attendeeStatusSql, findAttendee, inEventOrder, serializeAttendee, type AttendeeRow } from './attendee-rows';

type Status = OrganizerAttendee['status'];

const encodeCursor = (ticketId: string) => Buffer.from(JSON.stringify(['n', ticketId])).toString('base64url');

function decodeCursor(cursor: string): string {
  try {
    const [d, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    if (d === 'n' && typeof id === 'string' && isIdOf('ticket', id)) return id;
  } catch {
    // Refused below.
  }
  throw ApiError.of('invalid_cursor', { param: 'cursor' });
}

/** Counts per status over the whole event, one pass. */
async function summaryOf(db: Executor, scope: Scope, eventId: string) {
  const row = await db
    .selectFrom(attendeesOf(db, scope, eventId).as('a'))
    .select([
      sql<number>`count(*)::int`.as('all'),
      sql<number>`(count(*) filter (where a.status = 'pending'))::int`.as('pending'),
      sql<number>`(count(*) filter (where a.status = 'confirmed'))::int`.as('confirmed'),
      sql<number>`(count(*) filter (where a.status = 'cancelled'))::int`.as('cancelled'),
    ])
    .executeTakeFirstOrThrow();
  return row;
}

/** A page's rows, newest first, before a ticket id; one more than `limit`, to tell whether there are more. */
export function attendeesPage(db: Executor, scope: Scope, eventId: string, q: { before?: string; limit: number; status?: Status }) {
  let query = inEventOrder(attendeeRows(db, scope), eventId, 'desc', q.before ?? null);
  if (q.status) query = query.where(attendeeStatusSql, '=', q.status);
  return query.limit(q.limit + 1);
}

/** `GET …/attendees`: newest first (by ticket), the summary over every attendee of the event. */
export async function listAttendees(ctx: AppContext, caller: OrganizerCaller, ref: string, q: { cursor?: string; limit: number; status?: Status }) {
  const { scope } = caller;
  const event = await eventFor(ctx, ctx.db, caller, ref, 'read');
  const rows = await attendeesPage(ctx.db, scope, event.id, { ...q, before: q.cursor ? decodeCursor(q.cursor) : undefined }).execute();
  const hasMore = rows.length > q.limit;
  const data = rows.slice(0, q.limit);
  return {
    data: data.map(serializeAttendee),
    meta: { next_cursor: hasMore ? encodeCursor(data.at(-1)!.id) : null, has_more: hasMore, limit: q.limit },
    summary: await summaryOf(ctx.db, scope, event.id),
  };
}

/** The attendee of this event by its uuid; anything else is `404`. */
export async function attendeeRow(db: Executor, scope: Scope, eventId: string, attendeeId: string): Promise<AttendeeRow> {
  const row = UUID_ANCHOR.test(attendeeId) ? await findAttendee(db, scope, eventId, attendeeId) : undefined;
  if (!row) throw ApiError.notFound('attendee', attendeeId);
  return row;
}

export async function presentDetail(db: Executor, scope: Scope, row: AttendeeRow): Promise<OrganizerAttendeeDetail> {
  const answers = row.extra_data ?? {};
  return {
    ...serializeAttendee(row),
    event_slot: row.slot_id,
    review_reason: row.review_reason,
    reviewed_at: row.reviewed_at ? new Date(row.reviewed_at).toISOString() : null,
    extra_fields: row.extra_fields.map((f) => ({ id: f.id, name: f.name, value: answers[f.name] ?? answers[f.id] ?? null })),
    checkins: (await checkinsOfTicket(db, scope, row.id)).map(serializeCheckin),
  };
}

export async function getAttendee(ctx: AppContext, caller: OrganizerCaller, ref: string, attendeeId: string) {
  const event = await eventFor(ctx, ctx.db, caller, ref, 'read');
  return presentDetail(ctx.db, caller.scope, await attendeeRow(ctx.db, caller.scope, event.id, attendeeId));
}
