import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import { eventFor } from '../events/events.service';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { attendeesOf, serializeAttendee, type AttendeeRow } from './attendee-rows';

/** Rows read per query: the export keeps one batch in memory, however many attendees the event has. */
export const EXPORT_BATCH = 1000;

const COLUMNS = [
  'attendee_id', 'ticket_id', 'first_name', 'last_name', 'email', 'phone', 'status', 'review_status', 'ticket_type',
  'order_code', 'comp', 'invite_status', 'ticket_delivery_status', 'checked_in', 'created_at',
] as const;

/** A cell a spreadsheet would run as a formula is prefixed with `'`, so it is shown as text. */
export const escapeCell = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

const cellsOf = (row: AttendeeRow) => {
  const a = serializeAttendee(row);
  return [
    a.id, a.ticket.id, a.first_name, a.last_name, a.email, a.phone, a.status, a.review_status, a.ticket_type.name,
    a.order.code, a.comp, a.invite_status, a.ticket_delivery_status, a.checked_in, a.created_at,
  ];
};

/** The CSV text of one batch (with the header first), written to the response as one chunk. */
const csvOf = (rows: AttendeeRow[], header: boolean) =>
  stringify(rows.map(cellsOf), {
    header,
    columns: [...COLUMNS],
    cast: { string: escapeCell, boolean: (v) => (v ? 'true' : 'false') },
  });

/** The export's chunks: the CSV of one keyset batch each, the header in the first. */
export async function* attendeeCsvChunks(ctx: AppContext, scope: Scope, eventId: string) {
  let after: string | null = null;
  for (;;) {
    let q = attendeesOf(ctx.db, scope, eventId);
    if (after) q = q.where('tickets.id', '>', after);
    const batch = await q.orderBy('tickets.id', 'asc').limit(EXPORT_BATCH).execute();
    if (after === null || batch.length > 0) yield csvOf(batch, after === null);
    if (batch.length < EXPORT_BATCH) return;
    after = batch.at(-1)!.id;
  }
}

/**
 * `GET …/attendees/export`: a CSV streamed as it is read, one keyset batch at a time, oldest first. Each batch is
 * one chunk of the response (a write per row cost a system call per row); the stream asks for the next batch only
 * when the response has taken the last one, so memory stays flat at any size.
 */
export async function exportAttendees(ctx: AppContext, caller: OrganizerCaller, ref: string, format: string) {
  const event = await eventFor(ctx, ctx.db, caller, ref, 'read');
  if (format.toLowerCase() !== 'csv') throw ApiError.of('INVALID_FORMAT', { message: `Only csv exports exist, not '${format}'.` });
  // A client that goes away destroys the stream, which ends the reads (the generator's `return`).
  const stream = Readable.from(attendeeCsvChunks(ctx, caller.scope, event.id), { objectMode: true, highWaterMark: 1 });
  return { stream, filename: `attendees-${event.slug}.csv` };
}
