/** Tries of a moment's clip before it is `failed` (spec: "after 8 tries"). */
export const MAX_CLIP_TRIES = 8;

/**
 * Seconds to wait after each failed try before the next: 30 s, then 1, 2, 4, 8 and 10 minutes, and 10 minutes
 * again before the eighth and last try (the spec names six waits for eight tries; the last one repeats).
 */
export const CLIP_RETRY_DELAYS_S = [30, 60, 120, 240, 480, 600, 600] as const;

/** The wait after `failedTries` failed tries, or `null` when that was the last try. */
export function clipRetryDelay(failedTries: number): number | null {
  if (failedTries >= MAX_CLIP_TRIES) return null;
  return CLIP_RETRY_DELAYS_S[Math.min(failedTries, CLIP_RETRY_DELAYS_S.length) - 1] ?? null;
}

export interface ClipWindow {
  from: Date;
  to: Date;
}

/** The stretch of clock time a moment asks to clip. */
export function clipWindow(m: { occurred_at: Date; clip_before_s: number | null; clip_after_s: number | null }): ClipWindow {
  const at = m.occurred_at.getTime();
  return { from: new Date(at - (m.clip_before_s ?? 0) * 1000), to: new Date(at + (m.clip_after_s ?? 0) * 1000) };
}

/** The first try: once the window has closed, plus a short wait for the recording to catch up. */
export function firstTryAt(window: ClipWindow, settleSeconds: number): Date {
  return new Date(window.to.getTime() + settleSeconds * 1000);
}

/**
 * The window as offsets into a recording, never before its first frame or after its last (an open
 * recording's last frame is now). `null` when the recording does not reach into the window.
 */
export function cutWithin(window: ClipWindow, firstFrameAt: Date, lastFrameAt: Date): { startTime: number; endTime: number } | null {
  const start = Math.max(window.from.getTime(), firstFrameAt.getTime());
  const end = Math.min(window.to.getTime(), lastFrameAt.getTime());
  if (end <= start) return null;
  const base = firstFrameAt.getTime();
  return { startTime: (start - base) / 1000, endTime: (end - base) / 1000 };
}

/** How much of the window a recording covers, in ms (to pick among recordings around a reconnect). */
export function overlapMs(window: ClipWindow, firstFrameAt: Date, lastFrameAt: Date): number {
  return Math.max(0, Math.min(window.to.getTime(), lastFrameAt.getTime()) - Math.max(window.from.getTime(), firstFrameAt.getTime()));
}
