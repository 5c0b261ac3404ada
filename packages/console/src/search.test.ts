import { describe, expect, it } from 'vitest';
import { stringParams, withoutEmpty } from './search';

describe('filters in the URL', () => {
  it('keeps the declared filters as trimmed strings, and drops the rest', () => {
    const parse = stringParams(['status', 'path']);
    expect(parse({ status: ' 4xx ', path: '', other: 'x', page: 2 })).toEqual({ status: '4xx' });
    expect(stringParams(['page'])({ page: 2 })).toEqual({ page: '2' });
    expect(withoutEmpty({ a: '1', b: '', c: undefined })).toEqual({ a: '1' });
  });
});
