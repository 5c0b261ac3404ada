import { describe, expect, it } from 'vitest';
import { clipRetryDelay, clipWindow, cutWithin, firstTryAt, MAX_CLIP_TRIES } from './clip-schedule';

describe('clip retry schedule', () => {
  it('waits 30 s, 1, 2, 4, 8 and 10 minutes, then 10 again, and gives up after the 8th try', () => {
    const waits = Array.from({ length: MAX_CLIP_TRIES }, (_, i) => clipRetryDelay(i + 1));
    expect(waits).toEqual([30, 60, 120, 240, 480, 600, 600, null]);
  });
});

describe('clip window', () => {
  const at = new Date('2026-01-01T12:00:00Z');
  const m = { occurred_at: at, clip_before_s: 10, clip_after_s: 5 };

  it('spans the seconds before and after the moment and is tried after it closes plus the wait', () => {
    const w = clipWindow(m);
    expect(w.from.toISOString()).toBe('2026-01-01T11:59:50.000Z');
    expect(w.to.toISOString()).toBe('2026-01-01T12:00:05.000Z');
    expect(firstTryAt(w, 10).toISOString()).toBe('2026-01-01T12:00:15.000Z');
  });

  it('is clamped to the recording: never before the first frame or after the last', () => {
    const w = clipWindow(m);
    expect(cutWithin(w, new Date('2026-01-01T11:59:00Z'), new Date('2026-01-01T13:00:00Z'))).toEqual({ startTime: 50, endTime: 65 });
    expect(cutWithin(w, new Date('2026-01-01T11:59:55Z'), new Date('2026-01-01T13:00:00Z'))).toEqual({ startTime: 0, endTime: 10 });
    expect(cutWithin(w, new Date('2026-01-01T11:59:00Z'), new Date('2026-01-01T12:00:02Z'))).toEqual({ startTime: 50, endTime: 62 });
    expect(cutWithin(w, new Date('2026-01-01T12:01:00Z'), new Date('2026-01-01T13:00:00Z'))).toBeNull();
  });
});
