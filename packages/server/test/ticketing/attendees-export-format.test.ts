import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { csvOf, escapeCell, type ExportRow } from '../../src/modules/ticketing/attendees/attendees-export';

const COLUMNS = [
  'attendee_id', 'ticket_id', 'first_name', 'last_name', 'email', 'phone', 'status', 'review_status', 'ticket_type',
  'order_code', 'comp', 'invite_status', 'ticket_delivery_status', 'checked_in', 'created_at',
];

/** The export as csv-stringify wrote it before the CSV was written by hand: the format the file keeps. */
const before = (rows: ExportRow[], header: boolean) =>
  stringify(
    rows.map((r) => [
      r.attendee_id, r.id, r.first_name, r.last_name, r.email, r.phone, r.status, r.review_status, r.ticket_type_name,
      r.order_code, r.comp, r.invite_status, r.ticket_delivery_status, r.checked_in, new Date(r.created_at).toISOString(),
    ]),
    { header, columns: COLUMNS, cast: { string: escapeCell, boolean: (v) => (v ? 'true' : 'false') } },
  );

const tricky = [
  '', 'Amina', 'Plain, "quoted"', '"', '""', 'line\nbreak', 'carriage\rreturn', 'crlf\r\n', '=HYPERLINK("http://x.test","click")',
  '@SUM(1+1)', '+254700000000', '-5', '\tTab', '\rCR first', ' leading space', 'trailing,', 'Zoë Ñúñez', '名前', '😀, "x"', "'=already",
];

const rowOf = (i: number, text: string | null): ExportRow => ({
  id: `tkt_${String(i).padStart(26, '0')}`,
  attendee_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  first_name: text,
  last_name: i % 3 === 0 ? null : text,
  email: text === null ? null : `${text}@example.test`,
  phone: i % 2 === 0 ? null : text,
  ticket_type_name: text ?? 'GA',
  order_code: `ORD${i}`,
  comp: i % 2 === 0,
  invite_status: 'queued',
  ticket_delivery_status: i % 4 === 0 ? 'failed' : 'delivered',
  checked_in: i % 3 === 1,
  created_at: new Date(Date.UTC(2026, 10, 24, 5, 3, 12, i)),
  status: 'confirmed',
  review_status: i % 5 === 0 ? null : 'pending',
});

describe('attendee export format', () => {
  it('writes every cell as csv-stringify did: formula escapes, quotes, nulls, booleans, the header', () => {
    const rows = [...tricky, null].map((text, i) => rowOf(i, text));
    expect(csvOf(rows, true)).toBe(before(rows, true));
    expect(csvOf(rows, false)).toBe(before(rows, false));
    // An event without attendees: the header alone.
    expect(csvOf([], true)).toBe(before([], true));
    expect(csvOf([], true)).toBe(`${COLUMNS.join(',')}\n`);
  });
});
