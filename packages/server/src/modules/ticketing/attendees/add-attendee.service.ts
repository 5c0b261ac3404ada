import type { AddAttendeeInput } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { emitEvent } from '../../../core/events/emit-event';
import { newId } from '../../../core/ids';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import type { EffectiveBranding } from '@svc/contract';
import { brandOf } from '../../../core/branding';
import { writeMessage } from '../../identity';
import { eventHasSlots, findSlot, findTicketType, type EventRow } from '../booking/catalogue-reads';
import { bucketsOfTarget } from '../booking/booking-payload';
import { ensureBuckets, holdSeats } from '../capacity/capacity-buckets';
import { eventFor } from '../events/events.service';
import { markOrderPaid } from '../orders/order-transitions';
import { insertOrder, type OrderRow } from '../orders/order-rows.service';
import { presentOrder } from '../orders/orders.serializer';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { newOrderCode, newTicketSecret, ticketSecretHash } from '../tickets/ticket-secrets';
import { insertTickets } from '../tickets/ticket-rows.service';
import { ticketLineItemRow } from '../orders/order-rows.service';
import { INVITE_TEMPLATE } from './delivery-statuses';

const invalid = (param: string, message: string) => ApiError.of('validation_failed', { param, message, details: { [param]: [message] } });

async function insertWithCode(trx: Transaction<DB>, scope: Scope, values: Omit<Parameters<typeof insertOrder>[2], 'code'>): Promise<OrderRow> {
  for (let attempt = 0; ; attempt++) {
    const code = newOrderCode();
    const taken = await scoped(trx, scope).selectFrom('orders').select('id').where('code', '=', code).executeTakeFirst();
    if (!taken || attempt >= 5) return insertOrder(trx, scope, { ...values, code });
  }
}

async function writeInvite(trx: Transaction<DB>, scope: Scope, event: EventRow, order: OrderRow, ticketId: string, input: AddAttendeeInput, brand: EffectiveBranding) {
  await writeMessage(trx, scope, {
    channel: 'email',
    to: input.email.toLowerCase(),
    template: INVITE_TEMPLATE,
    subject: `You are on the guest list for ${event.name}`,
    body: `${input.first_name}, you are on the guest list for ${event.name} (booking ${order.code}). Your ticket follows in its own message.`,
    related: [order.id, ticketId],
    brand,
  });
  await scoped(trx, scope).updateTable('tickets').set({ invite_status: 'queued' }).where('id', '=', ticketId).execute();
}

/**
 * `POST …/attendees`: a complimentary ticket. It is booked as a buyer's would be (an order for one seat, the same
 * bucket holds), but with total 0 and `comp`, and paid at once by the shared transition, which sends the ticket.
 */
export async function addAttendee(ctx: AppContext, caller: OrganizerCaller, ref: string, input: AddAttendeeInput) {
  const { scope } = caller;
  const event = await eventFor(ctx, ctx.db, caller, ref, 'write');
  if (event.status === 'cancelled' || event.status === 'completed') throw ApiError.of('INVALID_STATE', { message: `The event is ${event.status}.` });
  const ticketType = await findTicketType(ctx.db, scope, event.id, input.ticket_type_id);
  if (!ticketType) throw ApiError.of('INVALID_TICKET', { message: 'This ticket type is not available for this event.' });
  const hasSlots = await eventHasSlots(ctx.db, scope, event.id);
  const slot = input.event_slot_id ? await findSlot(ctx.db, scope, event.id, input.event_slot_id) : null;
  if (hasSlots && !slot) throw invalid('event_slot_id', input.event_slot_id ? 'No such slot for this event.' : 'This event has slots: name one.');
  // One person is added, so one ticket and one seat, whatever the ticket type admits.
  const buckets = bucketsOfTarget({ event, ticketType, slot: slot ?? null, hasSlots, quantity: 1 });
  return ctx.db.transaction().execute(async (trx) => {
    const order = await insertWithCode(trx, scope, {
      id: newId('order'),
      status: 'pending',
      organization_id: event.organization_id,
      event_id: event.id,
      ticket_type_id: ticketType.id,
      slot_id: slot?.id ?? null,
      quantity: 1,
      seats: 1,
      bucket_ids: buckets.map((b) => b.id),
      coupon_id: null,
      coupon_state: null,
      amount_total: 0,
      currency: event.currency,
      // No buyer: the organizer gives it, so no receipt goes out.
      buyer_name: null,
      buyer_email: null,
      buyer_phone: null,
      customer_id: null,
      redirect_url: null,
      comp: true,
      external_id: null,
      metadata: '{}',
      expires_at: null,
    });
    const id = newId('ticket');
    const secret = newTicketSecret();
    const withLine = trx.with('new_line_item', (q) => q.insertInto('line_items').values(ticketLineItemRow(order, ticketType.name)).returning('id'));
    const [ticket] = await insertTickets(withLine, scope, [
      {
        id,
        order_id: order.id,
        event_id: event.id,
        ticket_type_id: ticketType.id,
        slot_id: slot?.id ?? null,
        position: 0,
        first_name: input.first_name,
        last_name: input.last_name,
        email: input.email.toLowerCase(),
        phone: input.phone ?? null,
        extra_data: '{}',
        customer_id: null,
        secret_hash: ticketSecretHash(secret),
        secret_sealed: ctx.secrets.encrypt(secret, id),
        status: 'pending_payment',
        // The organizer added them: nothing left to review.
        review_status: event.requires_approval || ticketType.requires_approval ? 'approved' : null,
        entitlement_id: null,
      },
    ]);
    await ensureBuckets(trx, scope, buckets);
    if (!(await holdSeats(trx, order.bucket_ids, 1))) throw ApiError.of('sold_out', { param: 'ticket_type_id' });
    await emitEvent(trx, scope, { type: 'events.order.created', subject: order.id, object: await presentOrder(trx, scope, order) });
    await markOrderPaid(trx, ctx, scope, order.id, { amountPaid: 0 });
    if (input.send_invite !== false) await writeInvite(trx, scope, event, order, id, input, await brandOf(ctx, scope, event.organization_id));
    const row = await scoped(trx, scope)
      .selectFrom('tickets')
      .select(['attendee_id', 'invite_status', 'ticket_delivery_status'])
      .where('id', '=', ticket!.id)
      .executeTakeFirstOrThrow();
    return { id: row.attendee_id, status: 'confirmed' as const, invite_status: row.invite_status, ticket_delivery_status: row.ticket_delivery_status };
  });
}
