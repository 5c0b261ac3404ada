import { describe, expect, it } from 'vitest';
import { nextReminder, periodEnd, promptMoment, reminderTimes } from './periods';

const at = (iso: string) => new Date(iso);

describe('subscription periods', () => {
  it('are calendar months and years, clamped to the month\'s end', () => {
    expect(periodEnd(at('2026-01-15T10:00:00Z'), 'month').toISOString()).toBe('2026-02-15T10:00:00.000Z');
    expect(periodEnd(at('2026-01-31T10:00:00Z'), 'month').toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(periodEnd(at('2028-01-31T10:00:00Z'), 'month').toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect(periodEnd(at('2026-12-31T23:00:00Z'), 'month').toISOString()).toBe('2027-01-31T23:00:00.000Z');
    expect(periodEnd(at('2028-02-29T00:00:00Z'), 'year').toISOString()).toBe('2029-02-28T00:00:00.000Z');
  });

  it('remind at the period end, +1 d, +3 d and a day before the grace ends', () => {
    const end = at('2026-03-01T00:00:00Z');
    expect(reminderTimes(end, 7).map((d) => d.toISOString().slice(0, 10))).toEqual(['2026-03-01', '2026-03-02', '2026-03-04', '2026-03-07']);
    expect(reminderTimes(end, 2).map((d) => d.toISOString().slice(0, 10))).toEqual(['2026-03-01', '2026-03-02']);
    expect(reminderTimes(end, 0)).toEqual([]);
    expect(nextReminder(end, 7, at('2026-03-02T00:00:00Z'))?.toISOString()).toBe('2026-03-04T00:00:00.000Z');
    expect(nextReminder(end, 7, at('2026-03-07T00:00:00Z'))).toBeNull();
  });

  it('prompt phones only between 08:00 and 20:00 in the organization\'s time zone, else at the next 08:00', () => {
    const moment = (iso: string, zone: string) => promptMoment(at(iso), zone).toISOString();
    expect(moment('2026-03-01T09:30:00Z', 'Africa/Nairobi')).toBe('2026-03-01T09:30:00.000Z');
    expect(moment('2026-03-01T05:00:00Z', 'Africa/Nairobi')).toBe('2026-03-01T05:00:00.000Z');
    expect(moment('2026-03-01T04:59:59Z', 'Africa/Nairobi')).toBe('2026-03-01T05:00:00.000Z');
    expect(moment('2026-03-01T16:59:59Z', 'Africa/Nairobi')).toBe('2026-03-01T16:59:59.000Z');
    expect(moment('2026-03-01T17:00:00Z', 'Africa/Nairobi')).toBe('2026-03-02T05:00:00.000Z');
    expect(moment('2026-03-01T02:15:30Z', 'Africa/Nairobi')).toBe('2026-03-01T05:00:00.000Z');
    expect(moment('2026-03-01T21:00:00Z', 'UTC')).toBe('2026-03-02T08:00:00.000Z');
    expect(moment('2026-03-01T21:00:00Z', 'Not/AZone')).toBe('2026-03-02T08:00:00.000Z');
  });
});
