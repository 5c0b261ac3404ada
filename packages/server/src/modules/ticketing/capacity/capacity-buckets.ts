import { sql, type Transaction } from 'kysely';
import type { DB } from '../../../db/schema';
import type { Scope } from '../../../core/scope';

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
 * Holds `seats` in every bucket, all or none, in one statement: the rows are locked in id order (the order
 * every holder takes them in, so two bookings never wait for each other's rows crosswise), then updated only
 * if every one of them has room. Answers the rows as updated, or `null` when one was full (nothing changed).
 */
export async function holdSeats(trx: Transaction<DB>, bucketIds: readonly string[], seats: number): Promise<HeldBucket[] | null> {
  const ids = [...new Set(bucketIds)];
  const { rows } = await sql<HeldBucket>`
    with locked as (
      select id, capacity, held, sold from capacity_buckets where id = any(${ids}::text[]) order by id for update
    ), fits as (
      select count(*) = ${ids.length} and coalesce(bool_and(capacity is null or held + sold + ${seats} <= capacity), false) as ok
      from locked
    )
    update capacity_buckets b set held = b.held + ${seats}
    from fits where fits.ok and b.id in (select id from locked)
    returning b.id, b.capacity, b.held, b.sold`.execute(trx);
  return rows.length === ids.length ? rows : null;
}

/** Locks the buckets in id order (as every holder takes them) and reads them: for holds decided by the caller. */
export async function lockBuckets(trx: Transaction<DB>, bucketIds: readonly string[]): Promise<HeldBucket[]> {
  const ids = [...new Set(bucketIds)].sort();
  const { rows } = await sql<HeldBucket>`
    select id, capacity, held, sold from capacity_buckets where id = any(${ids}::text[]) order by id for update`.execute(trx);
  return rows;
}

/**
 * The update that holds seats in buckets that `lockBuckets` locked and the caller found room in, the seats
 * summed per bucket: a common table expression (parenthesised, as `with` takes it), to run in the same statement
 * as the orders that hold them.
 */
export function holdLockedSeats(seats: ReadonlyMap<string, number>) {
  const ids = [...seats.keys()].sort();
  return sql<{ id: string }>`(
    update capacity_buckets b set held = b.held + s.seats
    from unnest(${ids}::text[], ${ids.map((id) => seats.get(id)!)}::int[]) as s(id, seats)
    where b.id = s.id
    returning b.id)`;
}

export interface HeldBucket {
  id: string;
  capacity: number | null;
  held: number;
  sold: number;
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
  // One statement, the rows locked in id order as every holder takes them.
  await sql`
    update capacity_buckets b set held = b.held - ${seats}, sold = b.sold + ${seats}
    from (select id from capacity_buckets where id = any(${[...bucketIds]}::text[]) order by id for update) l
    where b.id = l.id`.execute(trx);
}

/** `sellHeldSeats` for several orders at once: the seats summed per bucket, the rows locked in id order, one statement. */
export async function sellHeldSeatsOfOrders(trx: Transaction<DB>, orders: ReadonlyArray<{ bucket_ids: readonly string[]; seats: number }>): Promise<void> {
  const seats = new Map<string, number>();
  for (const o of orders) for (const id of o.bucket_ids) seats.set(id, (seats.get(id) ?? 0) + o.seats);
  if (seats.size === 0) return;
  const ids = [...seats.keys()].sort();
  await sql`
    update capacity_buckets b set held = b.held - s.seats, sold = b.sold + s.seats
    from (select id from capacity_buckets where id = any(${ids}::text[]) order by id for update) l,
      unnest(${ids}::text[], ${ids.map((id) => seats.get(id)!)}::int[]) as s(id, seats)
    where b.id = l.id and s.id = b.id`.execute(trx);
}

/** Gives seats back, from `held` or from `sold`. */
export async function releaseSeats(trx: Transaction<DB>, bucketIds: readonly string[], seats: number, from: 'held' | 'sold'): Promise<void> {
  const column = sql.ref(from);
  for (const id of [...bucketIds].sort()) {
    await sql`update capacity_buckets set ${column} = ${column} - ${seats} where id = ${id}`.execute(trx);
  }
}

/** Whether every bucket has room for `seats` in these rows as read (a missing row has its target capacity). */
export function roomIn(rows: readonly { id: string; capacity: number | null; held: number; sold: number }[], buckets: readonly BucketRow[], seats: number): boolean {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return buckets.every((b) => {
    const row = byId.get(b.id);
    const capacity = row ? row.capacity : b.capacity;
    return capacity === null || (row ? row.held + row.sold : 0) + seats <= capacity;
  });
}
