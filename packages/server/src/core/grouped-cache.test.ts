import { afterEach, describe, expect, it, vi } from 'vitest';
import { GroupedCache } from './grouped-cache';

afterEach(() => vi.useRealTimers());

describe('GroupedCache', () => {
  it('keeps a value until its time to live has passed', () => {
    vi.useFakeTimers();
    const cache = new GroupedCache<string>(1_000, 10);
    cache.keep('a', 'g', 'A', cache.mark());
    vi.advanceTimersByTime(999);
    expect(cache.get('a')).toBe('A');
    vi.advanceTimersByTime(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.holds('g')).toBe(false);
  });

  it('forgets every key of a group, and only that group', () => {
    const cache = new GroupedCache<string>(60_000, 10);
    cache.keep('a1', 'a', 'A1', cache.mark());
    cache.keep('a2', 'a', 'A2', cache.mark());
    cache.keep('b1', 'b', 'B1', cache.mark());
    cache.forget('a');
    expect([cache.get('a1'), cache.get('a2'), cache.get('b1')]).toEqual([undefined, undefined, 'B1']);
    expect(cache.holds('a')).toBe(false);
    cache.forget();
    expect(cache.size).toBe(0);
  });

  it('does not keep a value read while a forget came, of any group', () => {
    const cache = new GroupedCache<string>(60_000, 10);
    const mark = cache.mark();
    cache.forget('other');
    cache.keep('a', 'g', 'stale', mark);
    expect(cache.get('a')).toBeUndefined();
    cache.keep('a', 'g', 'fresh', cache.mark());
    expect(cache.get('a')).toBe('fresh');
  });

  it('lets the oldest entry go when full', () => {
    const cache = new GroupedCache<number>(60_000, 2);
    for (const n of [1, 2, 3]) cache.keep(`k${n}`, `g${n}`, n, cache.mark());
    expect([cache.get('k1'), cache.get('k2'), cache.get('k3')]).toEqual([undefined, 2, 3]);
    expect(cache.holds('g1')).toBe(false);
    expect(cache.size).toBe(2);
  });
});
