import type { CreateTicketTypeInput, CursorPageQuery, UpdateTicketTypeInput } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { newUuidV7 } from '../../../core/ids';
import { paginate, UUID_ANCHOR } from '../../../core/pagination';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import { bucketIds, changeTicketTypeQuantity, createBucket } from '../capacity/capacity.service';
import { eventFor } from '../events/events.service';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { eventHasSlots } from '../slots/slots.service';
import { checkTicketType, extraFieldsOf } from './ticket-type-rules';
import { publicEventChanged } from '../public/public-event-changed';
import { findTicketTypeRow, insertTicketType, ticketTypeIdsOf, ticketTypesOfEvents, ticketTypesQuery, updateTicketTypeRow } from './ticket-types.repository';
import { serializeTicketType } from './ticket-types.serializer';

const dateOrNull = (v: string | null | undefined) => (v ? new Date(v) : null);

export async function hasTicketTypes(db: Executor, scope: Scope, eventId: string): Promise<boolean> {
  return (await ticketTypesQuery(db, scope, eventId).select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Of these ids, the ones that are ticket types of the event. */
export const ticketTypesAmong = (db: Executor, scope: Scope, eventId: string, ids: readonly string[]) => ticketTypeIdsOf(db, scope, eventId, ids);

/** The ticket types of these events, in their order (public reads). */
export const ticketTypesOf = ticketTypesOfEvents;

export async function createTicketType(ctx: AppContext, caller: OrganizerCaller, ref: string, input: CreateTicketTypeInput) {
  const { scope } = caller;
  const row = await ctx.db.transaction().execute(async (trx) => {
    // The event row is locked so the slot rule (quantity per slot) cannot change under this insert.
    const event = await eventFor(ctx, trx, caller, ref, 'write', true);
    const values = {
      pricing_mode: input.pricing_mode,
      price: input.price ?? null,
      flexipay_min_price: input.flexipay_min_price ?? null,
      flexipay_max_price: input.flexipay_max_price ?? null,
      min_per_order: input.min_per_order ?? 1,
      max_per_order: input.max_per_order ?? 10,
      sale_starts_at: dateOrNull(input.sale_starts_at),
      sale_ends_at: dateOrNull(input.sale_ends_at),
    };
    checkTicketType(values);
    await publicEventChanged(ctx, trx, event.id);
    const created = await insertTicketType(trx, scope, {
      ...values,
      id: newUuidV7(),
      event_id: event.id,
      name: input.name,
      description: input.description ?? null,
      quantity: input.quantity ?? null,
      allow_pay_later: input.allow_pay_later ?? false,
      requires_approval: input.requires_approval ?? false,
      admits: input.admits ?? 1,
      extra_fields: JSON.stringify(extraFieldsOf(input.extra_fields ?? [])),
      stream_limits: input.stream_limits ? JSON.stringify(input.stream_limits) : null,
      status: input.status ?? 'active',
    });
    const perSlot = await eventHasSlots(trx, scope, event.id);
    await createBucket(trx, scope, {
      id: bucketIds.ticketType(created.id),
      event_id: event.id,
      ticket_type_id: created.id,
      capacity: perSlot ? null : created.quantity,
    });
    return created;
  });
  return serializeTicketType(row);
}

export async function listTicketTypes(ctx: AppContext, caller: OrganizerCaller, ref: string, page: CursorPageQuery) {
  const event = await eventFor(ctx, ctx.db, caller, ref, 'read');
  const result = await paginate(ticketTypesQuery(ctx.db, caller.scope, event.id), 'ticket_types.id', page, UUID_ANCHOR);
  return { ...result, data: result.data.map(serializeTicketType) };
}

export async function updateTicketType(ctx: AppContext, caller: OrganizerCaller, ref: string, id: string, input: UpdateTicketTypeInput) {
  const { scope } = caller;
  const row = await ctx.db.transaction().execute(async (trx) => {
    const event = await eventFor(ctx, trx, caller, ref, 'write', true);
    const current = await findTicketTypeRow(trx, scope, event.id, id, true);
    if (!current) throw ApiError.notFound('ticket type', id);
    const pick = <K extends keyof UpdateTicketTypeInput>(k: K, fallback: unknown) => (input[k] !== undefined ? input[k] : fallback);
    const merged = {
      pricing_mode: input.pricing_mode ?? current.pricing_mode,
      price: pick('price', current.price) as number | null,
      flexipay_min_price: pick('flexipay_min_price', current.flexipay_min_price) as number | null,
      flexipay_max_price: pick('flexipay_max_price', current.flexipay_max_price) as number | null,
      min_per_order: input.min_per_order ?? current.min_per_order,
      max_per_order: input.max_per_order ?? current.max_per_order,
      sale_starts_at: input.sale_starts_at !== undefined ? dateOrNull(input.sale_starts_at) : current.sale_starts_at,
      sale_ends_at: input.sale_ends_at !== undefined ? dateOrNull(input.sale_ends_at) : current.sale_ends_at,
    };
    checkTicketType(merged);
    if (input.quantity !== undefined && input.quantity !== current.quantity) {
      await changeTicketTypeQuantity(trx, scope, current.id, input.quantity, await eventHasSlots(trx, scope, event.id));
    }
    await publicEventChanged(ctx, trx, event.id);
    return updateTicketTypeRow(trx, scope, current.id, {
      ...merged,
      ...(input.name !== undefined && { name: input.name }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.quantity !== undefined && { quantity: input.quantity }),
      ...(input.allow_pay_later !== undefined && { allow_pay_later: input.allow_pay_later }),
      ...(input.requires_approval !== undefined && { requires_approval: input.requires_approval }),
      ...(input.admits !== undefined && { admits: input.admits }),
      ...(input.extra_fields !== undefined && { extra_fields: JSON.stringify(extraFieldsOf(input.extra_fields, current.extra_fields)) }),
      ...(input.stream_limits !== undefined && { stream_limits: input.stream_limits === null ? null : JSON.stringify(input.stream_limits) }),
      ...(input.status !== undefined && { status: input.status }),
    });
  });
  return serializeTicketType(row);
}
