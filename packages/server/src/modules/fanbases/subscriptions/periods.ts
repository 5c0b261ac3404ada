const DAY_MS = 86_400_000;

/**
 * The end of a period that starts at `start`: one calendar month or year later (UTC), clamped to the month's end
 * (31 January + 1 month is 28 or 29 February; 29 February + 1 year is 28 February).
 */
export function periodEnd(start: Date, interval: 'month' | 'year'): Date {
  const months = interval === 'month' ? 1 : 12;
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const end = new Date(start);
  end.setUTCFullYear(y, m, Math.min(start.getUTCDate(), lastDay));
  return end;
}

export const addDays = (at: Date, days: number) => new Date(at.getTime() + days * DAY_MS);
export const addHours = (at: Date, hours: number) => new Date(at.getTime() + hours * 3_600_000);

/**
 * The moments a prompt-mode renewal nudges the fan again after the first notice: at the period end, then
 * +1 day, +3 days and one day before the grace ends (those still ahead of the grace end, in order).
 */
export function reminderTimes(periodEndAt: Date, graceDays: number): Date[] {
  const graceEnd = addDays(periodEndAt, graceDays);
  const times = [periodEndAt, addDays(periodEndAt, 1), addDays(periodEndAt, 3), addDays(graceEnd, -1)];
  const unique = [...new Map(times.map((t) => [t.getTime(), t])).values()].sort((a, b) => a.getTime() - b.getTime());
  return unique.filter((t) => t.getTime() >= periodEndAt.getTime() && t.getTime() < graceEnd.getTime());
}

/** The first reminder after `at`, or `null` when none is left before the grace ends. */
export function nextReminder(periodEndAt: Date, graceDays: number, at: Date): Date | null {
  return reminderTimes(periodEndAt, graceDays).find((t) => t.getTime() > at.getTime()) ?? null;
}

/** The hour of `at` in the time zone (0–23), and the minutes and seconds past it in milliseconds. */
function localHour(at: Date, timeZone: string): { hour: number; pastMs: number } {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hourCycle: 'h23', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(at);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { hour: n('hour'), pastMs: (n('minute') * 60 + n('second')) * 1000 + at.getUTCMilliseconds() };
}

/**
 * When a payment prompt may reach the fan's phone: `at` itself between 08:00 and 20:00 in the organization's
 * time zone, else the next 08:00 there. An unknown zone is read as UTC.
 */
export function promptMoment(at: Date, timeZone: string): Date {
  let local: { hour: number; pastMs: number };
  try {
    local = localHour(at, timeZone);
  } catch {
    local = localHour(at, 'UTC');
  }
  if (local.hour >= 8 && local.hour < 20) return at;
  const hoursToEight = local.hour < 8 ? 8 - local.hour : 32 - local.hour;
  return new Date(at.getTime() + hoursToEight * 3_600_000 - local.pastMs);
}
