/**
 * List filters live in the URL, so a filtered list can be bookmarked, shared and reached with the back button.
 * Each screen declares its filters as strings; empty values are dropped from the URL.
 */
export function stringParams<K extends string>(keys: readonly K[]) {
  return (search: Record<string, unknown>): Partial<Record<K, string>> => {
    const out: Partial<Record<K, string>> = {};
    for (const k of keys) {
      const v = search[k];
      if (typeof v === 'string' && v.trim() !== '') out[k] = v.trim();
      else if (typeof v === 'number') out[k] = String(v);
    }
    return out;
  };
}

/** The filters with empty ones removed, for the router's `search`. */
export function withoutEmpty<T extends Record<string, string | undefined>>(filters: T): Partial<T> {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;
}
