import { sql } from 'kysely';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { BucketState } from '../capacity/capacity.service';
import type { BookingTarget } from './bookability';
import { eventFromJson, isUuid, slotFromJson, ticketTypeFromJson } from './catalogue-reads';

interface TargetRow {
  event: Record<string, unknown>;
  ticket_type: Record<string, unknown> | null;
  slot: Record<string, unknown> | null;
  has_slots: boolean;
  buckets: BucketState[];
}

/**
 * The event, ticket type and slot a booking names, whether the event has slots, and the state of the buckets
 * the booking would hold seats in (a plain read: the hold decides), all in one statement; `404` (with `param`)
 * for any that is not the event's.
 */
export async function loadBookingTarget(
  db: Executor,
  scope: Scope,
  eventRef: string,
  q: { ticket_id: string; quantity: number; event_slot_id?: string | null },
): Promise<BookingTarget & { buckets: BucketState[] }> {
  // Ids are uuids: a malformed one matches nothing, and is not compared with a uuid column.
  const ticketId = isUuid(q.ticket_id) ? q.ticket_id : null;
  const slotId = q.event_slot_id && isUuid(q.event_slot_id) ? q.event_slot_id : null;
  const byRef = isUuid(eventRef) ? sql`(e.id = ${eventRef}::uuid or e.slug = ${eventRef})` : sql`e.slug = ${eventRef}`;
  const { rows } = await sql<TargetRow>`
    select to_json(e) as event, to_json(tt) as ticket_type, to_json(s) as slot,
      exists (select 1 from event_slots x where x.tenant_id = e.tenant_id and x.livemode = e.livemode and x.event_id = e.id) as has_slots,
      (select coalesce(json_agg(json_build_object('id', b.id, 'event_id', b.event_id, 'slot_id', b.slot_id,
          'ticket_type_id', b.ticket_type_id, 'capacity', b.capacity, 'held', b.held, 'sold', b.sold)), '[]')
        from capacity_buckets b
        where b.id in ('e:' || e.id, 't:' || tt.id, 's:' || s.id, 'ts:' || tt.id || ':' || s.id)) as buckets
    from ticketed_events e
    left join ticket_types tt on tt.tenant_id = e.tenant_id and tt.livemode = e.livemode and tt.event_id = e.id and tt.id = ${ticketId}::uuid
    left join event_slots s on s.tenant_id = e.tenant_id and s.livemode = e.livemode and s.event_id = e.id and s.id = ${slotId}::uuid
    where e.tenant_id = ${scope.tenantId} and e.livemode = ${scope.livemode} and ${byRef}
    limit 1`.execute(db);
  const row = rows[0];
  if (!row) throw ApiError.of('resource_not_found', { message: `No such event: '${eventRef}'.`, param: 'event' });
  if (!row.ticket_type) throw ApiError.of('resource_not_found', { message: `No such ticket type for this event: '${q.ticket_id}'.`, param: 'ticket_id' });
  if (q.event_slot_id && !row.slot) throw ApiError.of('resource_not_found', { message: `No such slot for this event: '${q.event_slot_id}'.`, param: 'event_slot_id' });
  return {
    event: eventFromJson(row.event),
    ticketType: ticketTypeFromJson(row.ticket_type),
    slot: row.slot ? slotFromJson(row.slot) : null,
    hasSlots: row.slot ? true : row.has_slots,
    quantity: q.quantity,
    buckets: row.buckets,
  };
}
