import { describe, expect, it } from 'vitest';
import { ExpandQuerySchema } from '../src/common/expand';
import { MetadataSchema } from '../src/common/metadata';
import { CursorPageQuerySchema } from '../src/common/pagination';

const issuePaths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  (result.error?.issues ?? []).map((i) => i.path.join('.'));

describe('metadata', () => {
  it('accepts 50 keys of 40 characters with values of 500', () => {
    const ok = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`.padEnd(40, 'x'), 'v'.repeat(500)]));
    expect(MetadataSchema.safeParse(ok).success).toBe(true);
  });

  it('refuses a 51st key, a long key and a long value, naming the key', () => {
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    expect(MetadataSchema.safeParse(many).success).toBe(false);
    expect(issuePaths(MetadataSchema.safeParse({ ['x'.repeat(41)]: 'v' }))).toEqual(['x'.repeat(41)]);
    expect(issuePaths(MetadataSchema.safeParse({ colour: 'v'.repeat(501) }))).toEqual(['colour']);
    expect(MetadataSchema.safeParse({ n: 1 }).success).toBe(false);
  });
});

describe('pagination query', () => {
  it('defaults to 20 and caps at 100', () => {
    expect(CursorPageQuerySchema.parse({}).limit).toBe(20);
    expect(CursorPageQuerySchema.parse({ limit: '100' }).limit).toBe(100);
    expect(CursorPageQuerySchema.safeParse({ limit: '101' }).success).toBe(false);
    expect(CursorPageQuerySchema.safeParse({ limit: '0' }).success).toBe(false);
  });
});

describe('expand query', () => {
  it('takes a list, an indexed object and a single value alike', () => {
    expect(ExpandQuerySchema.parse(['a', 'b.c'])).toEqual(['a', 'b.c']);
    expect(ExpandQuerySchema.parse({ 0: 'a', 1: 'b' })).toEqual(['a', 'b']);
    expect(ExpandQuerySchema.parse('a')).toEqual(['a']);
    expect(ExpandQuerySchema.parse(undefined)).toBeUndefined();
  });
});
