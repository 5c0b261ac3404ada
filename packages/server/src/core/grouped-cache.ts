/**
 * Values kept by key for at most `ttlMs` and `maxEntries` at a time (the oldest goes first), each in a group
 * (an event, say) that can be forgotten at once. A read takes a `mark` before it starts and `keep`s what it read
 * with it: a value read while a `forget` came is not kept, since it may be what the forget was about.
 */
export class GroupedCache<V> {
  private readonly entries = new Map<string, { value: V; group: string; until: number }>();
  private readonly keysByGroup = new Map<string, Set<string>>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  /** The value kept for `key`, if it has not outlived the time to live. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry.value;
    this.drop(key, entry.group);
    return undefined;
  }

  /** Taken before a read whose value may be kept. */
  mark(): number {
    return this.generation;
  }

  /** Keeps `value` under `key` in `group`, unless a forget came since `mark`. */
  keep(key: string, group: string, value: V, mark: number): void {
    if (mark !== this.generation) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.drop(oldest, entry.group);
    }
    this.entries.set(key, { value, group, until: Date.now() + this.ttlMs });
    let keys = this.keysByGroup.get(group);
    if (!keys) this.keysByGroup.set(group, (keys = new Set()));
    keys.add(key);
  }

  /** Forgets one group (every key it was kept under), or everything; a read already running is not kept either. */
  forget(group?: string): void {
    this.generation += 1;
    if (group === undefined) {
      this.entries.clear();
      this.keysByGroup.clear();
      return;
    }
    for (const key of this.keysByGroup.get(group) ?? []) this.entries.delete(key);
    this.keysByGroup.delete(group);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether any key of the group is kept now. */
  holds(group: string): boolean {
    return this.keysByGroup.has(group);
  }

  private drop(key: string, group: string): void {
    this.entries.delete(key);
    const keys = this.keysByGroup.get(group);
    keys?.delete(key);
    if (keys?.size === 0) this.keysByGroup.delete(group);
  }
}
