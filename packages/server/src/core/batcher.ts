/** A flush's answer for one item that failed on its own: its caller is rejected with `error`, the others answered. */
export class ItemFailure {
  constructor(readonly error: unknown) {}
}

/**
 * Group commit for hot writes: calls made while a flush is running wait and go out together as the next
 * one, so N concurrent requests cost one statement instead of N, and a lone request still goes out at
 * once (no timer, no added delay when idle). Each caller gets its own item's result; a failed flush
 * rejects every caller in it.
 *
 * `flush` receives the items in arrival order and returns one result per item, in the same order (an
 * `ItemFailure` rejects that item's caller only).
 */
export class Batcher<I, O> {
  private queue: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly flush: (items: I[]) => Promise<Array<O | ItemFailure>>,
    private readonly options: { maxItems?: number; maxConcurrent?: number } = {},
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.running >= (this.options.maxConcurrent ?? 2)) return;
    this.scheduled = true;
    // After the current I/O phase, so requests parsed in the same turn of the event loop share the flush.
    setImmediate(() => {
      this.scheduled = false;
      void this.run();
    });
  }

  private async run(): Promise<void> {
    if (this.running >= (this.options.maxConcurrent ?? 2) || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.options.maxItems ?? 500);
    this.running += 1;
    try {
      const results = await this.flush(batch.map((b) => b.item));
      batch.forEach((b, i) => {
        const result = results[i];
        if (result instanceof ItemFailure) b.reject(result.error);
        else b.resolve(result as O);
      });
    } catch (err) {
      for (const b of batch) b.reject(err);
    } finally {
      this.running -= 1;
      this.schedule();
    }
  }
}

const DEADLOCK = '40P01';

/**
 * A flush whose rows two batches may lock in different orders: when PostgreSQL breaks a deadlock by aborting
 * this one, its items are written again one at a time, so a caller never sees the deadlock.
 */
export const aloneOnDeadlock =
  <I, O>(flush: (items: I[]) => Promise<O[]>) =>
  async (items: I[]): Promise<O[]> => {
    try {
      return await flush(items);
    } catch (err) {
      if ((err as { code?: string }).code !== DEADLOCK || items.length === 1) throw err;
      const out: O[] = [];
      for (const item of items) out.push(...(await flush([item])));
      return out;
    }
  };

/**
 * A flush that, when the whole batch fails (a deadlock, or one item's fault such as a unique violation), runs
 * each item again alone: an item that still fails rejects only its own caller.
 */
export const aloneOnFailure =
  <I, O>(flush: (items: I[]) => Promise<O[]>) =>
  async (items: I[]): Promise<Array<O | ItemFailure>> => {
    try {
      return await flush(items);
    } catch (err) {
      if (items.length === 1) return [new ItemFailure(err)];
      const out: Array<O | ItemFailure> = [];
      for (const item of items) out.push(await flush([item]).then(([result]) => result!, (error: unknown) => new ItemFailure(error)));
      return out;
    }
  };

/**
 * A flush's items split into groups by `keyOf` (a transaction per tenant and environment), each group run one
 * after the other, since a flush holds one pooled connection whatever the number of groups. Answers each item's
 * result in the items' order; a group whose run throws is answered, for each of its items, what `onFailure(err, group)`
 * answers once for it.
 */
export async function runByGroup<I, O>(
  items: readonly I[],
  keyOf: (item: I) => string,
  run: (group: I[]) => Promise<O[]>,
  onFailure: (err: unknown, group: I[]) => O,
): Promise<O[]> {
  const groups = new Map<string, number[]>();
  items.forEach((item, i) => groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), i]));
  const out = new Array<O>(items.length);
  for (const indexes of groups.values()) {
    const group = indexes.map((i) => items[i]!);
    const answers = await run(group).catch((err: unknown) => {
      const failed = onFailure(err, group);
      return group.map(() => failed);
    });
    indexes.forEach((i, j) => (out[i] = answers[j]!));
  }
  return out;
}
