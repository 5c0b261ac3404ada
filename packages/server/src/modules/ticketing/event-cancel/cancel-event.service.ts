import type { Selectable } from 'kysely';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { emitEvent } from '../../../core/events/emit-event';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { TicketedEventsTable } from '../../../db/ticketing.schema';
import { jobOf, sendInTransaction } from '../../../jobs/send-in-transaction';
import { cancelEventOrders } from './cancel-event-orders.job';

type EventRow = Selectable<TicketedEventsTable>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `{event}` is the uuid or the slug. */
const findEvent = (db: Executor, scope: Scope, ref: string) =>
  scoped(db, scope)
    .selectFrom('ticketed_events')
    .selectAll()
    .where(UUID.test(ref) ? 'id' : 'slug', '=', UUID.test(ref) ? ref.toLowerCase() : ref)
    .executeTakeFirst();

/**
 * `POST /v1/organizer/events/{event}/cancel`: the event stops taking bookings and payments at once; its
 * orders are settled by a job sent in the same transaction (cancel-event-orders.job.ts).
 */
export async function cancelEvent<T extends Record<string, unknown>>(ctx: AppContext, scope: Scope, ref: string, serialize: (row: EventRow) => T): Promise<T> {
  return ctx.db.transaction().execute(async (trx) => {
    const event = await findEvent(trx, scope, ref);
    if (!event) throw ApiError.notFound('event', ref);
    const cancelled = await scoped(trx, scope)
      .updateTable('ticketed_events')
      .set({ status: 'cancelled', cancelled_at: new Date(), updated_at: new Date() })
      .where('id', '=', event.id)
      .where('status', 'in', ['draft', 'published'])
      .returningAll()
      .executeTakeFirst();
    if (!cancelled) {
      const now = await scoped(trx, scope).selectFrom('ticketed_events').selectAll().where('id', '=', event.id).executeTakeFirstOrThrow();
      if (now.status === 'cancelled') return serialize(now);
      throw ApiError.of('invalid_state_transition', { details: { status: now.status, event: 'cancel' } });
    }
    const object = serialize(cancelled);
    await emitEvent(trx, scope, { type: 'events.event.cancelled', subject: cancelled.id, object, previousAttributes: { status: event.status } });
    await sendInTransaction(trx, [jobOf(cancelEventOrders, { tenant_id: scope.tenantId, livemode: scope.livemode, event_id: cancelled.id })]);
    return object;
  });
}
