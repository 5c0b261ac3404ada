import { describe, expect, it } from 'vitest';
import { JITTER, nextAttemptAt } from './retry-schedule';

const MIN = 60_000;
const H = 60 * MIN;

/** Attempt start times (ms after the first) when every attempt fails at once. */
function timeline(random: () => number): number[] {
  const first = new Date(0);
  const times = [0];
  let at = first;
  for (let attempt = 1; ; attempt++) {
    const next = nextAttemptAt(attempt, first, at, random);
    if (!next) return times;
    times.push(next.getTime());
    at = next;
  }
}

describe('retry schedule', () => {
  it('follows the spec table exactly without jitter: immediate, 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, then 12 h until 72 h', () => {
    const waits = timeline(() => 0.5).map((t, i, all) => (i === 0 ? 0 : t - all[i - 1]!));
    expect(waits).toEqual([0, MIN, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 12 * H, 12 * H, 12 * H, 12 * H]);
    expect(timeline(() => 0.5).at(-1)).toBeLessThanOrEqual(72 * H);
  });

  it('jitters each wait by at most 10%', () => {
    for (const r of [0, 0.25, 0.999]) {
      const times = timeline(() => r);
      const exact = [MIN, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 12 * H];
      times.slice(1).forEach((t, i) => {
        const wait = t - times[i]!;
        const table = exact[Math.min(i, exact.length - 1)]!;
        expect(Math.abs(wait - table)).toBeLessThanOrEqual(table * JITTER + 1);
      });
      expect(times.at(-1)).toBeLessThanOrEqual(72 * H);
    }
  });

  it('stops once the next attempt would start after 72 hours', () => {
    expect(nextAttemptAt(11, new Date(0), new Date(65 * H), () => 0.5)).toBeNull();
  });
});
