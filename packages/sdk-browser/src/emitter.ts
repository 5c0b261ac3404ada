type Listener<T> = (payload: T) => void;

/** The smallest typed event emitter that does the job. */
export class Emitter<Events extends object> {
  private listeners: { [K in keyof Events]?: Set<Listener<Events[K]>> } = {};

  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    (this.listeners[event] ??= new Set()).add(listener);
    return () => this.off(event, listener);
  }

  off<K extends keyof Events>(event: K, listener: Listener<Events[K]>): void {
    this.listeners[event]?.delete(listener);
  }

  protected emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    for (const l of [...(this.listeners[event] ?? [])]) {
      try {
        l(payload);
      } catch (e) {
        setTimeout(() => {
          throw e;
        });
      }
    }
  }
}
