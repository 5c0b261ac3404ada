import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { emitEvent } from '../../../core/events/emit-event';
import { hasTicketTypes } from '../ticket-types/ticket-types.service';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { recordEventPublished } from '../activity/activity-items';
import { updateEventRow } from './events.repository';
import { serializeEvent } from './events.serializer';
import { eventFor } from './events.service';
import { publicEventChanged } from '../public/public-event-changed';

/**
 * A draft event becomes `published` (public reads show it, bookings open) and `events.event.published` is sent in
 * the same transaction. The row is locked, so two publishes send one event; a published event is answered as it is.
 */
export async function publishEvent(ctx: AppContext, caller: OrganizerCaller, ref: string) {
  const { scope } = caller;
  const row = await ctx.db.transaction().execute(async (trx) => {
    const event = await eventFor(ctx, trx, caller, ref, 'write', true);
    if (event.status === 'published') return event;
    if (event.status !== 'draft') {
      throw ApiError.of('invalid_state_transition', {
        message: `A ${event.status} event cannot be published.`,
        details: { status: event.status, event: 'publish' },
      });
    }
    if (!(await hasTicketTypes(trx, scope, event.id))) throw ApiError.of('event_has_no_ticket_types');
    await publicEventChanged(ctx, trx, event.id);
    const published = await updateEventRow(trx, scope, event.id, { status: 'published', published_at: new Date() });
    await recordEventPublished(trx, published);
    const object = serializeEvent(published);
    await emitEvent(trx, scope, { type: 'events.event.published', subject: published.id, object, previousAttributes: { status: 'draft', published_at: null } });
    return published;
  });
  return serializeEvent(row);
}
