import { sql } from 'kysely';
import { LIMITS } from '@svc/contract';
import { GroupedCache } from '../../../core/grouped-cache';
import type { NotificationListener } from '../../../core/notify';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { TicketedEventRow } from '../events/events.serializer';
import type { SlotRow } from '../booking/catalogue-reads';
import type { TicketTypeRow } from '../ticket-types/ticket-types.serializer';

export const PUBLIC_EVENTS_CHANNEL = 'svc_ticketing_public';

/** What a public page shows of a published event, apart from availability (read per request). */
export interface PublicCatalogue {
  event: TicketedEventRow;
  ticketTypes: TicketTypeRow[];
  slots: SlotRow[];
}

/**
 * Published events as the public page reads them, by tenant, environment and the `{event}` the buyer named (slug
 * or uuid), kept at most 60 seconds and `maxEntries` at a time. A change to the event, its ticket types or slots
 * notifies every process in its transaction (`publicEventChanged`), and the changing process forgets at once. A
 * read that an invalidation overtook is not kept; an event that is not found is never kept. A lost LISTEN
 * connection clears everything.
 */
export class PublicEventCache {
  private readonly cache: GroupedCache<PublicCatalogue>;

  constructor(listener: NotificationListener, ttlMs = LIMITS.keyCache.maxSeconds * 1000, maxEntries = 5_000) {
    this.cache = new GroupedCache(ttlMs, maxEntries);
    listener.on(PUBLIC_EVENTS_CHANNEL, (eventId) => this.forget(eventId));
    listener.onReset(() => this.forget());
  }

  static keyOf(scope: Scope, ref: string): string {
    return `${scope.tenantId}:${scope.livemode}:${ref}`;
  }

  /** The cached catalogue for `key`, else what `load` reads (kept unless an invalidation came meanwhile). */
  async read(key: string, load: () => Promise<PublicCatalogue | undefined>): Promise<PublicCatalogue | undefined> {
    const kept = this.cache.get(key);
    if (kept) return kept;
    const mark = this.cache.mark();
    const value = await load();
    if (value) this.cache.keep(key, value.event.id, value, mark);
    return value;
  }

  /** Forgets one event (every key it was read by), or everything; a read already running is not kept either. */
  forget(eventId?: string): void {
    this.cache.forget(eventId);
  }

  get size(): number {
    return this.cache.size;
  }

  /** Whether any key of the event is kept now. */
  holds(eventId: string): boolean {
    return this.cache.holds(eventId);
  }
}

/**
 * Tells every process (this one a moment later) that what the public page shows of the event changed; sent only
 * if the transaction commits. The caller also forgets the event in its own process (`forget`) before answering.
 */
export async function notifyPublicEventChanged(db: Executor, eventId: string): Promise<void> {
  await sql`select pg_notify(${PUBLIC_EVENTS_CHANNEL}, ${eventId})`.execute(db);
}
