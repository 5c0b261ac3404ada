import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { emitEvent } from '../../../core/events/emit-event';
import { scoped } from '../../../core/scope';
import { jobOf, sendInTransaction } from '../../../jobs/send-in-transaction';
import { serializeEvent, type SerializedEvent } from '../events/events.serializer';
import { eventFor } from '../events/events.service';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { publicEventChanged } from '../public/public-event-changed';
import { cancelEventOrders } from './cancel-event-orders.job';

/**
 * `POST /v1/organizer/events/{event}/cancel`: the event stops taking bookings and payments at once, under its
 * row lock; its orders are settled by a job sent in the same transaction (cancel-event-orders.job.ts), so a
 * large event is not one long transaction and the work resumes after a crash. Cancelling again answers the
 * event as it is.
 */
export async function cancelEvent(ctx: AppContext, caller: OrganizerCaller, ref: string): Promise<SerializedEvent> {
  const { scope } = caller;
  return ctx.db.transaction().execute(async (trx) => {
    const event = await eventFor(ctx, trx, caller, ref, 'write', true);
    if (event.status === 'cancelled') return serializeEvent(event);
    if (event.status !== 'draft' && event.status !== 'published') {
      throw ApiError.of('invalid_state_transition', {
        message: `A ${event.status} event cannot be cancelled.`,
        details: { status: event.status, event: 'cancel' },
      });
    }
    await publicEventChanged(ctx, trx, event.id);
    const now = new Date();
    const cancelled = await scoped(trx, scope)
      .updateTable('ticketed_events')
      .set({ status: 'cancelled', cancelled_at: now, updated_at: now })
      .where('id', '=', event.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const object = serializeEvent(cancelled);
    await emitEvent(trx, scope, {
      type: 'events.event.cancelled',
      subject: cancelled.id,
      object,
      previousAttributes: { status: event.status, cancelled_at: null },
    });
    await sendInTransaction(trx, [jobOf(cancelEventOrders, { tenant_id: scope.tenantId, livemode: scope.livemode, event_id: cancelled.id })]);
    return object;
  });
}
