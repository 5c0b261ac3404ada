import { sql, type Transaction } from 'kysely';
import type { DB } from '../../../db/schema';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';

/** What a booking takes seats from. */
export interface SeatTarget {
  event: { id: string; capacity: number | null };
  slot: { id: string; capacity: number | null } | null;
  ticketType: { id: string; quantity: number | null };
}

export interface BucketRow {
  id: string;
  event_id: string;
  slot_id: string | null;
  ticket_type_id: string | null;
  capacity: number | null;
}

/**
 * The buckets a booking holds seats in, in id order (the order every holder updates them in, so two bookings
 * never wait for each other's rows crosswise). With slots a ticket type's quantity applies per slot (`ts:`),
 * and its `t:` bucket is unlimited.
 */
export function bucketsOf(target: SeatTarget): BucketRow[] {
  const { event, slot, ticketType } = target;
  const rows: BucketRow[] = [
    { id: `e:${event.id}`, event_id: event.id, slot_id: null, ticket_type_id: null, capacity: event.capacity },
    { id: `t:${ticketType.id}`, event_id: event.id, slot_id: null, ticket_type_id: ticketType.id, capacity: slot ? null : ticketType.quantity },
  ];
  if (slot) {
    rows.push({ id: `s:${slot.id}`, event_id: event.id, slot_id: slot.id, ticket_type_id: null, capacity: slot.capacity });
    rows.push({ id: `ts:${ticketType.id}:${slot.id}`, event_id: event.id, slot_id: slot.id, ticket_type_id: ticketType.id, capacity: ticketType.quantity });
  }
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Makes the bucket rows that do not exist yet (`ts:` rows are made by the first booking; the catalogue makes
 * the others, and this only covers a row it has not made). An existing row is left as it is.
 */
export async function ensureBuckets(trx: Transaction<DB>, scope: Scope, buckets: readonly BucketRow[]): Promise<void> {
  await trx
    .insertInto('capacity_buckets')
    .values(buckets.map((b) => ({ ...b, tenant_id: scope.tenantId, livemode: scope.livemode })))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/**
 * Holds `seats` in every bucket, one conditional update each in id order: a bucket without room updates no
 * row, and the caller's transaction rolls back the holds made before it. Answers false when one was full.
 */
export async function holdSeats(trx: Transaction<DB>, bucketIds: readonly string[], seats: number): Promise<boolean> {
  for (const id of [...bucketIds].sort()) {
    const { numAffectedRows } = await sql`
      update capacity_buckets set held = held + ${seats}
      where id = ${id} and (capacity is null or held + sold + ${seats} <= capacity)`.execute(trx);
    if (Number(numAffectedRows ?? 0) === 0) return false;
  }
  return true;
}

/** Seats taken again as sold (a payment after the hold expired); undoes its own moves when a bucket is full. */
export async function takeSoldSeats(trx: Transaction<DB>, bucketIds: readonly string[], seats: number): Promise<boolean> {
  const taken: string[] = [];
  for (const id of [...bucketIds].sort()) {
    const { numAffectedRows } = await sql`
      update capacity_buckets set sold = sold + ${seats}
      where id = ${id} and (capacity is null or held + sold + ${seats} <= capacity)`.execute(trx);
    if (Number(numAffectedRows ?? 0) === 0) {
      for (const back of taken) await sql`update capacity_buckets set sold = sold - ${seats} where id = ${back}`.execute(trx);
      return false;
    }
    taken.push(id);
  }
  return true;
}

/** Held seats become sold: the room was counted when they were held, so nothing can refuse this. */
export async function sellHeldSeats(trx: Transaction<DB>, bucketIds: readonly string[], seats: number): Promise<void> {
  for (const id of [...bucketIds].sort()) {
    await sql`update capacity_buckets set held = held - ${seats}, sold = sold + ${seats} where id = ${id}`.execute(trx);
  }
}

/** Gives seats back, from `held` or from `sold`. */
export async function releaseSeats(trx: Transaction<DB>, bucketIds: readonly string[], seats: number, from: 'held' | 'sold'): Promise<void> {
  const column = sql.ref(from);
  for (const id of [...bucketIds].sort()) {
    await sql`update capacity_buckets set ${column} = ${column} - ${seats} where id = ${id}`.execute(trx);
  }
}

/** Whether every bucket has room for `seats` now (a read for `bookable`; the hold decides). */
export async function haveRoom(db: Executor, buckets: readonly BucketRow[], seats: number): Promise<boolean> {
  const rows = await db.selectFrom('capacity_buckets').select(['id', 'capacity', 'held', 'sold']).where('id', 'in', buckets.map((b) => b.id)).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return buckets.every((b) => {
    const row = byId.get(b.id);
    const capacity = row ? row.capacity : b.capacity;
    return capacity === null || (row ? row.held + row.sold : 0) + seats <= capacity;
  });
}
