import { describe, expect, it } from 'vitest';
import { csvOf, type ExportRow } from '../../src/modules/ticketing/attendees/attendees-export';

const COLUMNS = [
  'attendee_id', 'ticket_id', 'first_name', 'last_name', 'email', 'phone', 'status', 'review_status', 'ticket_type',
  'order_code', 'comp', 'invite_status', 'ticket_delivery_status', 'checked_in', 'created_at',
];

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
  it('writes formula escapes, quotes, line breaks, nulls, booleans and the header', () => {
    const rows = [...tricky, null].map((text, i) => rowOf(i, text));
    const lines = csvOf(rows, true).split('\n');
    expect(lines[0]).toBe(COLUMNS.join(','));
    const first = (i: number) => csvOf([rows[i]!], false).split(',').slice(0, 3).join(',');
    expect(first(1)).toBe('00000000-0000-4000-8000-000000000001,tkt_00000000000000000000000001,Amina');
    expect(csvOf([rows[2]!], false)).toContain(',"Plain, ""quoted""",');
    expect(csvOf([rows[5]!], false)).toContain(',"line\nbreak",');
    expect(csvOf([rows[8]!], false)).toContain(`,"'=HYPERLINK(""http://x.test"",""click"")",`);
    expect(csvOf([rows[9]!], false)).toContain(",'@SUM(1+1),");
    expect(csvOf([rows[10]!], false)).toContain(",'+254700000000,");
    expect(csvOf([rows[11]!], false)).toContain(",'-5,");
    expect(csvOf([rows[19]!], false)).toContain(",'=already,");
    // Null cells are empty, booleans are words, times are ISO.
    const last = csvOf([rows[20]!], false).trimEnd().split(',');
    expect(last.slice(2, 6)).toEqual(['', '', '', '']);
    expect(last.slice(10)).toEqual(['true', 'queued', 'failed', 'false', '2026-11-24T05:03:12.020Z']);
    // An event without attendees: the header alone.
    expect(csvOf([], true)).toBe(`${COLUMNS.join(',')}\n`);
  });
});
