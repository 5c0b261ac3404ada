import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import { bucketsOfEvents, insertBucket, setCapacity, type NewBucket } from './capacity-buckets.repository';

/**
 * The catalogue's side of capacity: the `e:`, `s:` and `t:` rows (booking adds `ts:` rows lazily). When an event
 * has slots, a ticket type's quantity applies per slot (its `ts:` rows) and its `t:` row is unlimited.
 */
export const bucketIds = {
  event: (eventId: string) => `e:${eventId}`,
  slot: (slotId: string) => `s:${slotId}`,
  ticketType: (ticketTypeId: string) => `t:${ticketTypeId}`,
  ticketTypeInSlot: (ticketTypeId: string, slotId: string) => `ts:${ticketTypeId}:${slotId}`,
};

export const createBucket = (db: Executor, scope: Scope, bucket: NewBucket) => insertBucket(db, scope, bucket);

const below = (param: string) =>
  ApiError.of('validation_failed', {
    param,
    message: `The ${param} is below the seats already held and sold.`,
    details: { [param]: ['Below the seats already held and sold.'] },
  });

export async function changeEventCapacity(db: Executor, scope: Scope, eventId: string, capacity: number | null) {
  if (!(await setCapacity(db, scope, { id: bucketIds.event(eventId) }, capacity))) throw below('capacity');
}

/** A ticket type's quantity: its `t:` row without slots, every `ts:` row of it with slots. */
export async function changeTicketTypeQuantity(db: Executor, scope: Scope, ticketTypeId: string, quantity: number | null, eventHasSlots: boolean) {
  const ok = eventHasSlots
    ? await setCapacity(db, scope, { ticketTypeInSlots: ticketTypeId }, quantity)
    : await setCapacity(db, scope, { id: bucketIds.ticketType(ticketTypeId) }, quantity);
  if (!ok) throw below('quantity');
}

/** The event's first slot: ticket type quantities now apply per slot, so their `t:` rows become unlimited. */
export async function ticketTypesPerSlot(db: Executor, scope: Scope, eventId: string) {
  await setCapacity(db, scope, { eventTicketTypes: eventId }, null);
}

export interface BucketState {
  id: string;
  event_id: string;
  slot_id: string | null;
  ticket_type_id: string | null;
  capacity: number | null;
  held: number;
  sold: number;
}

/** The buckets of these events by id, to tell what is sold out. */
export async function bucketsByIdOf(db: Executor, scope: Scope, eventIds: readonly string[]): Promise<Map<string, BucketState>> {
  return new Map((await bucketsOfEvents(db, scope, eventIds)).map((b) => [b.id, b]));
}

/** Seats left in a bucket (Infinity when unlimited; a missing row is empty). */
export const seatsLeft = (bucket: BucketState | undefined, capacityIfMissing: number | null = null): number => {
  if (!bucket) return capacityIfMissing ?? Infinity;
  return bucket.capacity === null ? Infinity : bucket.capacity - bucket.held - bucket.sold;
};
