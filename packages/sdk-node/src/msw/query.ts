/** `a=1&b[]=x&b[]=y&m[k]=v` as `{a: '1', b: ['x','y'], m: {k: 'v'}}`, the way the server's parser reads it. */
export function parseQuery(search: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of search) {
    const m = /^([^[\]]+)\[([^\]]*)\]$/.exec(rawKey);
    if (!m) {
      out[rawKey] = value;
      continue;
    }
    const [, key, sub] = m as unknown as [string, string, string];
    if (sub === '' || /^\d+$/.test(sub)) {
      const list = Array.isArray(out[key]) ? (out[key] as unknown[]) : [];
      list.push(value);
      out[key] = list;
    } else {
      const map = (out[key] && typeof out[key] === 'object' ? out[key] : {}) as Record<string, unknown>;
      map[sub] = value;
      out[key] = map;
    }
  }
  return out;
}
