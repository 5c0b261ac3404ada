import { sql } from 'kysely';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';

export interface NewBucket {
  id: string;
  event_id: string;
  slot_id?: string | null;
  ticket_type_id?: string | null;
  capacity: number | null;
}

export async function insertBucket(db: Executor, scope: Scope, bucket: NewBucket): Promise<void> {
  await scoped(db, scope)
    .insertInto('capacity_buckets', { slot_id: null, ticket_type_id: null, ...bucket })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/**
 * Sets the capacity of the buckets matched, unless one of them already has more seats held and sold than it:
 * one conditional statement, so a booking holding seats at the same moment either fits under the new capacity
 * or is refused by its own conditional update. Answers false (nothing changed) when a bucket is over.
 */
export async function setCapacity(
  db: Executor,
  scope: Scope,
  match: { id: string } | { ticketTypeInSlots: string } | { eventTicketTypes: string },
  capacity: number | null,
): Promise<boolean> {
  const where =
    'id' in match
      ? sql`id = ${match.id}`
      : 'ticketTypeInSlots' in match
        ? sql`ticket_type_id = ${match.ticketTypeInSlots} and slot_id is not null`
        : sql`event_id = ${match.eventTicketTypes} and ticket_type_id is not null and slot_id is null`;
  const result = await sql<{ over: boolean }>`
    with target as (
      select id, held + sold as taken from capacity_buckets
      where tenant_id = ${scope.tenantId} and livemode = ${scope.livemode} and ${where}
      for update
    ), over as (
      select 1 from target where ${capacity}::int is not null and taken > ${capacity}::int
    ), changed as (
      update capacity_buckets set capacity = ${capacity}::int
      where id in (select id from target) and not exists (select 1 from over)
      returning id
    )
    select exists (select 1 from over) as over`.execute(db);
  return !result.rows[0]!.over;
}

export async function bucketsOfEvents(db: Executor, scope: Scope, eventIds: readonly string[]) {
  if (eventIds.length === 0) return [];
  return scoped(db, scope)
    .selectFrom('capacity_buckets')
    .select(['id', 'event_id', 'slot_id', 'ticket_type_id', 'capacity', 'held', 'sold'])
    .where('event_id', 'in', eventIds)
    .execute();
}
