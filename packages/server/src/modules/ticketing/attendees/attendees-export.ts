import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import { eventFor } from '../events/events.service';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { attendeeRows, attendeeStatusSql, inEventOrder, reviewSql } from './attendee-rows';

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

/** Only the columns the CSV shows: the attendee list's other columns (JSON among them) would be read for nothing. */
const exportRows = (ctx: AppContext, scope: Scope) =>
  attendeeRows(ctx.db, scope)
    .clearSelect()
    .select([
      'tickets.id', 'tickets.attendee_id', 'tickets.first_name', 'tickets.last_name', 'tickets.email', 'tickets.phone',
      'ticket_types.name as ticket_type_name', 'orders.code as order_code', 'orders.comp', 'tickets.invite_status',
      'tickets.ticket_delivery_status', 'tickets.checked_in', 'tickets.created_at',
    ])
    .select([attendeeStatusSql.as('status'), reviewSql.as('review_status')]);

export type ExportRow = Awaited<ReturnType<ReturnType<typeof exportRows>['executeTakeFirstOrThrow']>>;

/** One attendee's cells in the order of `COLUMNS`. */
const cellsOf = (r: ExportRow) => [
  r.attendee_id, r.id, r.first_name, r.last_name, r.email, r.phone, r.status, r.review_status, r.ticket_type_name,
  r.order_code, r.comp, r.invite_status, r.ticket_delivery_status, r.checked_in, new Date(r.created_at).toISOString(),
];

/** The CSV text of one batch (with the header first), written to the response as one chunk. */
export const csvOf = (rows: ExportRow[], header: boolean): string =>
  stringify(rows.map(cellsOf), {
    header,
    columns: [...COLUMNS],
    cast: { string: escapeCell, boolean: (v) => (v ? 'true' : 'false') },
  });

/** One keyset batch of the export, oldest first: the tickets after the last one of the batch before. */
export const exportBatch = (ctx: AppContext, scope: Scope, eventId: string, after: string | null) =>
  inEventOrder(exportRows(ctx, scope), eventId, 'asc', after).limit(EXPORT_BATCH);

/** The export's chunks: the CSV of one keyset batch each, the header in the first. */
export async function* attendeeCsvChunks(ctx: AppContext, scope: Scope, eventId: string) {
  let after: string | null = null;
  for (;;) {
    const batch = await exportBatch(ctx, scope, eventId, after).execute();
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
