/** When reconciliation asks about a pending payment: 30 s, 1, 2, 5, 10 and 30 minutes after it started, then hourly. */
const OFFSETS_SECONDS = [30, 60, 120, 300, 600, 1800];
const HOUR = 3600;

/** How long a payment may stay pending before it is `failed` with `timeout` (a later confirmed success still wins). */
export const GIVE_UP_AFTER_MS = 24 * HOUR * 1000;

/** The time of the check after `checks` checks were made, or `null` when none is left before giving up. */
export function nextCheckAt(createdAt: Date, checks: number): Date {
  const seconds = checks < OFFSETS_SECONDS.length ? OFFSETS_SECONDS[checks]! : HOUR * (checks - OFFSETS_SECONDS.length + 1);
  return new Date(createdAt.getTime() + Math.min(seconds * 1000, GIVE_UP_AFTER_MS));
}
