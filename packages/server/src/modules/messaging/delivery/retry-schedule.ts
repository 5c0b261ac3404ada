const MINUTE = 60_000;

/** The waits after each failed attempt: the 2nd attempt 1 min after the 1st, then 5 min, 30 min and 2 h. */
export const MESSAGE_RETRY_WAITS_MS = [MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE] as const;
/** One first attempt and a retry after each wait; the message is `failed` when the last one fails. */
export const MAX_ATTEMPTS = MESSAGE_RETRY_WAITS_MS.length + 1;

/** When to try again after failed attempt number `attempt` (1-based), or `null` when none is left. */
export function nextAttemptAt(attempt: number, failedAt: Date): Date | null {
  const wait = MESSAGE_RETRY_WAITS_MS[attempt - 1];
  return wait === undefined ? null : new Date(failedAt.getTime() + wait);
}
