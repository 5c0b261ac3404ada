import { describe, expect, it } from 'vitest';
import { ID_PREFIXES, objectTypeOfId } from '../src/common/ids';

describe('ID prefixes', () => {
  it('has every prefix of the spec', () => {
    const spec = ['evt', 'tkt', 'ls', 'cus', 'ord', 'ast', 'pb', 'as', 'ent', 'ctk', 'cts', 'ten', 'req', 'mpc'];
    const prefixes: string[] = Object.values(ID_PREFIXES);
    for (const p of spec) expect(prefixes).toContain(p);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it('reads the object type from an ID, and nothing from an unknown prefix', () => {
    expect(objectTypeOfId('ls_01h455vb4pex5vsknk084sn02q')).toBe('live_stream');
    expect(objectTypeOfId('as_01h455vb4pex5vsknk084sn02q')).toBe('access_session');
    expect(objectTypeOfId('zz_01h455vb4pex5vsknk084sn02q')).toBeUndefined();
    expect(objectTypeOfId('noprefix')).toBeUndefined();
    expect(objectTypeOfId('_01h455')).toBeUndefined();
  });
});
