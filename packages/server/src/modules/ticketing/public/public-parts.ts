import type { AppContext } from '../../../core/context';
import { Batcher } from '../../../core/batcher';
import { modulePart, type ModuleWorker } from '../../../core/modules/module-definition';
import type { NotificationListener } from '../../../core/notify';
import { PeriodicTask } from '../../../core/periodic-task';
import type { Scope } from '../../../core/scope';
import { bucketsByIdOf, type BucketState } from '../capacity/capacity.service';
import { PageViewCounter } from './page-view-counter';
import { SoldOutMemo } from '../booking/sold-out-memo';
import { PublicEventCache } from './public-event-cache';

/** Page views are deduplicated per visitor and event for this long. */
export const PAGE_VIEW_WINDOW_MINUTES = 30;

export interface PublicReadParts {
  /** Published events' catalogues, cleared on every process when they change. */
  events: PublicEventCache;
  /** Bucket reads of concurrent public reads, one statement per batch (availability is never cached). */
  buckets: Batcher<{ scope: Scope; eventId: string }, Map<string, BucketState>>;
  pageViews: PageViewCounter;
  /** Booking targets last read sold out, cleared on every process when room may have come back. */
  soldOut: SoldOutMemo;
}

const part = modulePart<PublicReadParts>('ticketing');
export const publicReadsOf = (ctx: Pick<AppContext, 'parts'>): PublicReadParts => part.of(ctx);

/**
 * The module's `setup`: the public reads' cache and the sold-out memo on the LISTEN connection, the bucket reads
 * and the view counter.
 */
export function setUpPublicReads(ctx: AppContext, listener: NotificationListener): void {
  part.set(ctx, {
    events: new PublicEventCache(listener),
    buckets: new Batcher(async (items) => {
      // Each scope's events in one statement; a batch usually holds one scope.
      const byScope = new Map<string, { scope: Scope; ids: Set<string> }>();
      for (const { scope, eventId } of items) {
        const key = `${scope.tenantId}:${scope.livemode}`;
        if (!byScope.has(key)) byScope.set(key, { scope, ids: new Set() });
        byScope.get(key)!.ids.add(eventId);
      }
      const read = await Promise.all([...byScope.values()].map(({ scope, ids }) => bucketsByIdOf(ctx.db, scope, [...ids])));
      const all = new Map(read.flatMap((m) => [...m]));
      return items.map(({ eventId }) => new Map([...all].filter(([, b]) => b.event_id === eventId)));
    }),
    pageViews: new PageViewCounter(ctx.db, ctx.log, PAGE_VIEW_WINDOW_MINUTES),
    soldOut: new SoldOutMemo(listener),
  });
}

/** Writes the counted page views every `SVC_PAGE_VIEW_FLUSH_MS` (a second), and the last ones when the server stops. */
export function pageViewWriter(ctx: AppContext): ModuleWorker {
  const { pageViews } = publicReadsOf(ctx);
  const task = new PeriodicTask(() => pageViews.flush(), ctx.config.SVC_PAGE_VIEW_FLUSH_MS, (err) => ctx.log.warn({ err: err.message }, 'page views not written'));
  return {
    // The counts are in the memory of the process that served the pages.
    runsIn: 'api',
    start: () => task.start(),
    stop: async () => {
      await task.stop();
      await pageViews.flush();
    },
  };
}
