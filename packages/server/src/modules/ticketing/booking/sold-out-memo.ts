import { GroupedCache } from '../../../core/grouped-cache';
import type { NotificationListener } from '../../../core/notify';
import type { Scope } from '../../../core/scope';
import type { BucketState } from '../capacity/capacity.service';
import { PUBLIC_EVENTS_CHANNEL } from '../public/public-event-cache';
import type { BookingTarget } from './bookability';

/** Sent by a trigger on `capacity_buckets` (migration 2026_11_27_20) with the event's id when a bucket's room grew. */
export const ROOM_FREED_CHANNEL = 'svc_ticketing_room';

/** A booking's target as read, with its buckets' state. */
export type ReadTarget = BookingTarget & { buckets: BucketState[] };

/**
 * Booking targets last read with no room for a single seat, so that the refusals of a rush (nine bookings in ten
 * once the last seats are gone) are answered without reading the same full buckets again. Only what a read
 * showed is kept, and `book` decides from it exactly as from a fresh read.
 *
 * An entry goes the moment room may have come back: every process hears, when the transaction commits, of any
 * bucket whose room grew (seats released, capacity raised) and of any change to the event's catalogue. The
 * process that makes the change forgets at once, in its transaction (`forget`), so that its own next booking
 * reads again. A read that an invalidation overtook is not kept, a lost LISTEN connection clears everything, and
 * nothing is kept longer than `ttlMs`.
 */
export class SoldOutMemo {
  private readonly cache: GroupedCache<ReadTarget>;

  constructor(listener: NotificationListener, ttlMs = 2_000, maxEntries = 2_000) {
    this.cache = new GroupedCache(ttlMs, maxEntries);
    const forget = (eventId: string) => this.forget(eventId);
    listener.on(ROOM_FREED_CHANNEL, forget);
    listener.on(PUBLIC_EVENTS_CHANNEL, forget);
    listener.onReset(() => this.forget());
  }

  static keyOf(scope: Scope, eventRef: string, ticketId: string, slotId: string | null | undefined): string {
    return `${scope.tenantId}:${scope.livemode}:${eventRef}:${ticketId}:${slotId ?? ''}`;
  }

  /**
   * The target kept for `key` (with this booking's quantity), else what `load` reads, kept when `full` says it
   * has no room for one seat.
   */
  async read(key: string, quantity: number, load: () => Promise<ReadTarget>, full: (t: ReadTarget) => boolean): Promise<ReadTarget> {
    const kept = this.cache.get(key);
    if (kept) return { ...kept, quantity };
    const mark = this.cache.mark();
    const target = await load();
    if (full(target)) this.cache.keep(key, target.event.id, target, mark);
    return target;
  }

  /** Forgets one event's targets, or everything; a read already running is not kept either. */
  forget(eventId?: string): void {
    this.cache.forget(eventId);
  }

  /** Whether a target of the event is kept now. */
  holds(eventId: string): boolean {
    return this.cache.holds(eventId);
  }
}
