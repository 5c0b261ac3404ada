import { Readable } from 'node:stream';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import { eventFor } from '../events/events.service';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { attendeesOf, attendeeStatusSql, reviewSql } from './attendee-rows';

/**
 * Rows read per query. A batch's rows live until its CSV is made, long enough for V8 to move most of them to the
 * old generation, which then grows until a full collection: smaller batches keep that growth down for a few more
 * (cheap, keyset) queries.
 */
export const EXPORT_BATCH = 250;

const COLUMNS = [
  'attendee_id', 'ticket_id', 'first_name', 'last_name', 'email', 'phone', 'status', 'review_status', 'ticket_type',
  'order_code', 'comp', 'invite_status', 'ticket_delivery_status', 'checked_in', 'created_at',
] as const;

/** A cell a spreadsheet would run as a formula is prefixed with `'`, so it is shown as text. */
export const escapeCell = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

const NEEDS_QUOTES = /[",\n\r]/;

/**
 * One text cell, written as csv-stringify writes it (the export's format since it began): nothing for null, the
 * formula escape, then quotes around a cell holding a comma, a quote or a line break, its quotes doubled.
 */
export function csvCell(value: string | null): string {
  if (value === null) return '';
  const text = escapeCell(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Only the columns the CSV shows: the attendee list's other columns (JSON among them) would be read for nothing. */
const exportRows = (ctx: AppContext, scope: Scope, eventId: string) =>
  attendeesOf(ctx.db, scope, eventId)
    .clearSelect()
    .select([
      'tickets.id', 'tickets.attendee_id', 'tickets.first_name', 'tickets.last_name', 'tickets.email', 'tickets.phone',
      'ticket_types.name as ticket_type_name', 'orders.code as order_code', 'orders.comp', 'tickets.invite_status',
      'tickets.ticket_delivery_status', 'tickets.checked_in', 'tickets.created_at',
    ])
    .select([attendeeStatusSql.as('status'), reviewSql.as('review_status')]);

export type ExportRow = Awaited<ReturnType<ReturnType<typeof exportRows>['executeTakeFirstOrThrow']>>;

/**
 * One attendee's cells in the order of `COLUMNS`. Joined (not concatenated one by one, which leaves a rope of a node
 * per piece alive until the text is written), each line is one flat string, and its cells are garbage at once.
 */
const cellsOf = (r: ExportRow) => [
  csvCell(r.attendee_id), csvCell(r.id), csvCell(r.first_name), csvCell(r.last_name), csvCell(r.email), csvCell(r.phone),
  csvCell(r.status), csvCell(r.review_status), csvCell(r.ticket_type_name), csvCell(r.order_code), r.comp ? 'true' : 'false',
  csvCell(r.invite_status), csvCell(r.ticket_delivery_status), r.checked_in ? 'true' : 'false', csvCell(new Date(r.created_at).toISOString()),
];

/** The CSV text of one batch (with the header first), each line ended by `\n`. */
export function csvOf(rows: ExportRow[], header: boolean): string {
  const lines: string[] = header ? [COLUMNS.join(',')] : [];
  for (const row of rows) lines.push(cellsOf(row).join(','));
  lines.push('');
  return lines.join('\n');
}

/** The export's chunks: the CSV of one keyset batch each, the header in the first. */
export async function* attendeeCsvChunks(ctx: AppContext, scope: Scope, eventId: string) {
  let after: string | null = null;
  for (;;) {
    let q = exportRows(ctx, scope, eventId);
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
