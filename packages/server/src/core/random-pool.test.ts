import { describe, expect, it } from 'vitest';
import { randomBytesPooled, randomPool, takeRandom } from './random-pool';

describe('random pool', () => {
  it('hands out each byte once, drawing again when the pool is used up', () => {
    const starts: number[] = [];
    // More than one pool's worth, in sizes that do not divide it.
    for (let i = 0; i < 700; i++) starts.push(takeRandom(12));
    for (let i = 1; i < starts.length; i++) {
      // Either the next run of the same draw, or the start of a new draw.
      expect(starts[i] === starts[i - 1]! + 12 || starts[i] === 0).toBe(true);
    }
    expect(starts.filter((s) => s === 0).length).toBeGreaterThanOrEqual(2);
  });

  it('answers bytes of their own, unchanged by later draws', () => {
    const first = randomBytesPooled(12);
    const copy = Buffer.from(first);
    // Past the next draw, which writes over the pool's bytes.
    for (let i = 0; i < 400; i++) randomBytesPooled(12);
    expect(first.buffer).not.toBe(randomPool.buffer);
    expect(first.equals(copy)).toBe(true);
    // Twelve random bytes twice alike would be a fault of the pool, not chance.
    const seen = new Set(Array.from({ length: 1000 }, () => randomBytesPooled(12).toString('hex')));
    expect(seen.size).toBe(1000);
  });
});
