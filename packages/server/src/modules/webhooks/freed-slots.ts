/**
 * Slots of endpoints freed by this process's attempts. A delivery whose endpoint had no free slot waits here
 * and leases as soon as one of this process's attempts to that endpoint ends, rather than a job later; one
 * waiter is woken per freed slot, so the lessors do not all queue on the endpoint's row lock for it.
 */
export class FreedSlots {
  private readonly waiting = new Map<string, Set<() => void>>();

  freed(endpointId: string): void {
    const waiters = this.waiting.get(endpointId);
    const first = waiters?.values().next();
    if (first && !first.done) first.value();
  }

  /** Resolves when a slot of the endpoint frees in this process, or after `ms` (another process may free one). */
  next(endpointId: string, ms: number): Promise<void> {
    let waiters = this.waiting.get(endpointId);
    if (!waiters) this.waiting.set(endpointId, (waiters = new Set()));
    const all = waiters;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        all.delete(done);
        if (all.size === 0 && this.waiting.get(endpointId) === all) this.waiting.delete(endpointId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      all.add(done);
    });
  }

  get waiters(): number {
    let n = 0;
    for (const w of this.waiting.values()) n += w.size;
    return n;
  }
}
