import type { Logger } from 'pino';
import type { Database } from '../../../db/database';
import { countViews, type PendingView } from '../analytics/rollups';

/**
 * Page views counted in memory and written together (`flush`: every second by the module's worker, at once when
 * `maxPending` wait, and on shutdown). A visitor's repeated views of an event in one batch are one; the statement
 * skips a view when the visitor viewed the event within the window before it, so the rollups count as if
 * each view were written alone. Flushes never overlap. A batch that fails is put back for the next flush.
 */
export class PageViewCounter {
  private pending = new Map<string, PendingView>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
    private readonly windowMinutes: number,
    private readonly maxPending = 10_000,
  ) {}

  count(view: PendingView): void {
    const key = `${view.event.id}:${view.visitorHash}`;
    if (this.pending.has(key)) return;
    this.pending.set(key, view);
    if (this.pending.size >= this.maxPending) this.flush().catch((err: Error) => this.log.warn({ err: err.message }, 'page views not written'));
  }

  get waiting(): number {
    return this.pending.size;
  }

  /** Writes every view counted so far (after a flush already running). */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.write());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      await countViews(this.db, batch, this.windowMinutes);
    } catch (err) {
      for (const view of batch) {
        const key = `${view.event.id}:${view.visitorHash}`;
        if (!this.pending.has(key)) this.pending.set(key, view);
      }
      throw err;
    }
  }
}
