/**
 * Work shared by the calls that arrive while it runs: a call for a key already in flight takes that promise
 * instead of starting again. Nothing is kept once it settles, so a later call starts afresh.
 */
export class InFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, start: () => Promise<T>): Promise<T> {
    let pending = this.running.get(key);
    if (!pending) {
      pending = start().finally(() => this.running.delete(key));
      this.running.set(key, pending);
    }
    return pending;
  }
}
