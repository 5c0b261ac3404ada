const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The spec's wait after each failed attempt: attempt 2 after 1 min, 3 after 5 min, … 8 onward every 12 h. */
export const RETRY_WAITS_MS = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR] as const;
export const LATER_RETRY_WAIT_MS = 12 * HOUR;
/** No attempt starts more than 72 hours after a delivery's first attempt. */
export const RETRY_WINDOW_MS = 72 * HOUR;
/** Each wait is stretched or shrunk by up to this share, so retries of many deliveries spread out. */
export const JITTER = 0.1;

/** The wait after failed attempt number `attempt` (1-based), before jitter. */
export const retryWaitMs = (attempt: number) => RETRY_WAITS_MS[attempt - 1] ?? LATER_RETRY_WAIT_MS;

/**
 * When to try again after failed attempt number `attempt`, or `null` when the 72-hour window is over.
 * `random` in [0, 1) picks the jitter; 0.5 gives the table's exact wait.
 */
export function nextAttemptAt(attempt: number, firstAttemptAt: Date, failedAt: Date, random: () => number): Date | null {
  const wait = retryWaitMs(attempt) * (1 + JITTER * (2 * random() - 1));
  const next = new Date(failedAt.getTime() + Math.round(wait));
  return next.getTime() - firstAttemptAt.getTime() <= RETRY_WINDOW_MS ? next : null;
}
