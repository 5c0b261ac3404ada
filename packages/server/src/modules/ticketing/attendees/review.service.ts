import type { OrganizerAttendeeDetail } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { releaseSeats } from '../capacity/capacity-buckets';
import { eventFor } from '../events/events.service';
import { uncountTickets } from '../analytics/rollups';
import { revokeTicketHolder } from '../orders/order-holders';
import { nowOf } from '../orders/order-transitions';
import type { OrderRow } from '../orders/order-rows.service';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { cancelPendingOrder, releaseOrderAs } from '../payments/order-port';
import { seatsFreed } from '../public/public-event-changed';
import { issueRefund } from '../refunds/issue-refund';
import { orderAfterRefund } from '../refunds/order-after-refund';
import { lockTicket, type AttendeeRow } from './attendee-rows';
import { attendeeRow, presentDetail } from './attendees.service';

const invalidState = (message: string) => ApiError.of('INVALID_STATE', { message });

/**
 * Runs a review under the order's row lock, then the ticket's (the order of locks payment takes, so a review
 * and a payment of the same order wait for each other instead of deadlocking), on the attendee read again.
 */
export async function underLocks<T>(
  ctx: AppContext,
  caller: OrganizerCaller,
  ref: string,
  attendeeId: string,
  work: (trx: Transaction<DB>, row: AttendeeRow, order: OrderRow) => Promise<T>,
): Promise<T> {
  const { scope } = caller;
  return ctx.db.transaction().execute(async (trx) => {
    const event = await eventFor(ctx, trx, caller, ref, 'write');
    const first = await attendeeRow(trx, scope, event.id, attendeeId);
    const order = await scoped(trx, scope).selectFrom('orders').selectAll().where('id', '=', first.order_id).forUpdate().executeTakeFirstOrThrow();
    await lockTicket(trx, scope, first.id);
    return work(trx, await attendeeRow(trx, scope, event.id, attendeeId), order);
  });
}

/** `POST …/approve`: only a paid attendee that was not rejected; approving again answers the attendee. */
export async function approveAttendee(ctx: AppContext, caller: OrganizerCaller, ref: string, attendeeId: string): Promise<OrganizerAttendeeDetail> {
  const { scope } = caller;
  return underLocks(ctx, caller, ref, attendeeId, async (trx, row, order) => {
    if (row.review_status === 'rejected') throw invalidState('This attendee was rejected; a rejection is final.');
    if (row.review_status === 'approved') return presentDetail(trx, scope, row);
    if (row.status === 'cancelled') throw invalidState(`This attendee's order is ${order.status}; there is nothing to approve.`);
    if (order.status === 'pending') throw ApiError.of('PAYMENT_PENDING', { message: 'The payment for this attendee is not complete yet.' });
    await scoped(trx, scope)
      .updateTable('tickets')
      .set({ review_status: 'approved', reviewed_at: nowOf(ctx), updated_at: new Date() })
      .where('id', '=', row.id)
      .execute();
    return presentDetail(trx, scope, await attendeeRow(trx, scope, order.event_id!, attendeeId));
  });
}

/**
 * What was paid for one attendee: an even share of the order's payment, or all that is left to refund once
 * no other attendee of the order keeps a ticket (so rejecting everyone refunds the order whole).
 */
function shareOf(order: OrderRow, ticketsInOrder: number, othersLeft: number): number {
  const refundable = order.amount_paid - order.amount_refunded;
  if (othersLeft === 0) return refundable;
  return Math.min(refundable, Math.floor(order.amount_paid / ticketsInOrder));
}

/** One seat back to the buckets when an order keeps its other attendees (the order then holds one seat fewer). */
async function giveBackSeat(trx: Transaction<DB>, ctx: AppContext, scope: Scope, order: OrderRow) {
  if (order.seats_state === 'released' || order.seats <= 1) return;
  const moved = await scoped(trx, scope)
    .updateTable('orders')
    .set((eb) => ({ seats: eb('seats', '-', 1), updated_at: new Date() }))
    .where('id', '=', order.id)
    .where('seats_state', '=', order.seats_state)
    .where('seats', '>', 1)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return;
  await releaseSeats(trx, order.bucket_ids, 1, order.seats_state);
  seatsFreed(ctx, order.event_id!);
  if (order.seats_state === 'sold') await uncountTickets(trx, order, 1);
}

/**
 * `POST …/reject`: the ticket is void and what was paid for it is refunded through the refunds service; the
 * order ends (cancelled, or refunded) once no attendee of it is left. Rejecting again answers the attendee.
 */
export async function rejectAttendee(ctx: AppContext, caller: OrganizerCaller, ref: string, attendeeId: string, reason: string | null) {
  const { scope } = caller;
  return underLocks(ctx, caller, ref, attendeeId, async (trx, row, order) => {
    if (row.review_status === 'approved') throw invalidState('This attendee was approved already.');
    if (row.review_status === 'rejected') return presentDetail(trx, scope, row);
    if (row.status === 'cancelled') throw invalidState(`This attendee's order is ${order.status}; there is nothing to reject.`);
    const now = nowOf(ctx);
    await scoped(trx, scope)
      .updateTable('tickets')
      .set({ review_status: 'rejected', review_reason: reason, reviewed_at: now, status: 'void', updated_at: new Date() })
      .where('id', '=', row.id)
      .execute();
    await revokeTicketHolder(trx, scope, row.id, now);
    const counts = await scoped(trx, scope)
      .selectFrom('tickets')
      .select((eb) => [eb.fn.countAll<string>().as('all'), eb.fn.count<string>('id').filterWhere('status', '!=', 'void').as('left')])
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    const othersLeft = Number(counts.left);
    if (order.status === 'pending') {
      if (othersLeft === 0) await cancelPendingOrder(trx, ctx, scope, order.id);
      else await giveBackSeat(trx, ctx, scope, order);
    } else if (order.status === 'paid' || order.status === 'partially_refunded') {
      if (othersLeft > 0) await giveBackSeat(trx, ctx, scope, order);
      const amount = shareOf(order, Number(counts.all), othersLeft);
      if (amount > 0) {
        const issued = await issueRefund(trx, ctx, scope, order, amount, reason ?? 'Attendee rejected by the organizer.');
        if (issued.refund.status === 'succeeded') await orderAfterRefund(trx, ctx, scope, issued.order);
      } else if (othersLeft === 0) {
        // Nothing was paid (a comp): the order ends as cancelled, its seats back.
        await releaseOrderAs(trx, ctx, scope, order, 'cancelled');
      }
    }
    return presentDetail(trx, scope, await attendeeRow(trx, scope, order.event_id!, attendeeId));
  });
}
