import type { CreateEventSlotInput, CursorPageQuery } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { newUuidV7 } from '../../../core/ids';
import { paginate, UUID_ANCHOR } from '../../../core/pagination';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import { bucketIds, createBucket, ticketTypesPerSlot } from '../capacity/capacity.service';
import { eventFor } from '../events/events.service';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { publicEventChanged } from '../public/public-event-changed';
import { insertSlot, slotsOfEvents, slotsQuery } from './slots.repository';

import type { SlotRow } from '../booking/catalogue-reads';

export type { SlotRow };

export function serializeSlot(row: SlotRow) {
  return {
    id: row.id,
    object: 'event_slot' as const,
    livemode: row.livemode,
    event: row.event_id,
    starts_at: new Date(row.starts_at).toISOString(),
    ends_at: new Date(row.ends_at).toISOString(),
    capacity: row.capacity,
    created_at: new Date(row.created_at).toISOString(),
  };
}

export async function eventHasSlots(db: Executor, scope: Scope, eventId: string): Promise<boolean> {
  return (await slotsQuery(db, scope, eventId).select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** The slots of these events by start (public reads). */
export const slotsOf = slotsOfEvents;

export async function createSlot(ctx: AppContext, caller: OrganizerCaller, ref: string, input: CreateEventSlotInput) {
  const { scope } = caller;
  const startsAt = new Date(input.starts_at);
  const endsAt = new Date(input.ends_at);
  if (endsAt.getTime() <= startsAt.getTime()) {
    throw ApiError.of('validation_failed', { param: 'ends_at', message: 'Must be after starts_at.', details: { ends_at: ['Must be after starts_at.'] } });
  }
  const row = await ctx.db.transaction().execute(async (trx) => {
    const event = await eventFor(ctx, trx, caller, ref, 'write', true);
    // With its first slot, an event's ticket type quantities apply per slot (booking's `ts:` rows).
    if (!(await eventHasSlots(trx, scope, event.id))) await ticketTypesPerSlot(trx, scope, event.id);
    await publicEventChanged(ctx, trx, event.id);
    const slot = await insertSlot(trx, scope, { id: newUuidV7(), event_id: event.id, starts_at: startsAt, ends_at: endsAt, capacity: input.capacity ?? null });
    await createBucket(trx, scope, { id: bucketIds.slot(slot.id), event_id: event.id, slot_id: slot.id, capacity: slot.capacity });
    return slot;
  });
  return serializeSlot(row);
}

export async function listSlots(ctx: AppContext, caller: OrganizerCaller, ref: string, page: CursorPageQuery) {
  const event = await eventFor(ctx, ctx.db, caller, ref, 'read');
  const result = await paginate(slotsQuery(ctx.db, caller.scope, event.id), 'event_slots.id', page, UUID_ANCHOR);
  return { ...result, data: result.data.map(serializeSlot) };
}
