import { TypeID } from 'typeid-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isIdOf, newId, newUuidV7 } from './ids';

/** The UUID's 48-bit Unix milliseconds. */
const msOf = (uuid: string) => parseInt(uuid.replace(/-/g, '').slice(0, 12), 16);

describe('newId', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is a TypeID of the type’s prefix whose UUID is a version 7 of the time it was made', () => {
    const before = Date.now();
    const id = newId('live_stream');
    const after = Date.now();
    expect(isIdOf('live_stream', id)).toBe(true);
    const parsed = TypeID.fromString(id);
    expect(parsed.getType()).toBe('ls');
    const uuid = parsed.toUUID();
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(msOf(uuid)).toBeGreaterThanOrEqual(before);
    expect(msOf(uuid)).toBeLessThanOrEqual(after);
    // The same text typeid-js writes for that UUID.
    expect(TypeID.fromUUID('ls', uuid).toString()).toBe(id);
  });

  it('sorts in the order made, many within one millisecond, and never repeats', () => {
    vi.spyOn(Date, 'now').mockReturnValue(1_800_000_000_000);
    const ids = Array.from({ length: 50_000 }, () => newId('request'));
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
  });

  it('keeps the order when the clock steps back by less than 10 seconds, and follows a step of more', () => {
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_800_000_100_000);
    const first = newId('request');
    now.mockReturnValue(1_800_000_095_000);
    const second = newId('request');
    expect(second > first).toBe(true);
    expect(msOf(TypeID.fromString(second).toUUID())).toBe(1_800_000_100_000);
    now.mockReturnValue(1_800_000_080_000);
    expect(msOf(TypeID.fromString(newId('request')).toUUID())).toBe(1_800_000_080_000);
  });

  it('draws fresh random bits for each ID', () => {
    vi.spyOn(Date, 'now').mockReturnValue(1_800_000_200_000);
    // The last 8 characters are the 40 random bits alone.
    const tails = new Set(Array.from({ length: 2_000 }, () => newId('request').slice(-8)));
    expect(tails.size).toBe(2_000);
  });
});

describe('newUuidV7', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is a version 7 UUID of the time it was made, in the order made within a millisecond', () => {
    vi.spyOn(Date, 'now').mockReturnValue(1_800_000_300_000);
    const uuids = Array.from({ length: 5_000 }, () => newUuidV7());
    for (const uuid of uuids) {
      expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(msOf(uuid)).toBe(1_800_000_300_000);
    }
    for (let i = 1; i < uuids.length; i++) expect(uuids[i]! > uuids[i - 1]!).toBe(true);
    // typeid-js reads it back as the same UUID.
    expect(TypeID.fromUUID('x', uuids[0]!).toUUID()).toBe(uuids[0]);
  });
});
