import type { Transaction } from 'kysely';
import type { EventSubscriber, PreparedEvent } from '../../../core/events/event-subscribers';
import { scoped } from '../../../core/scope';
import type { DB } from '../../../db/schema';

/** The messages whose delivery an attendee shows, by the outbox template they were written with. */
export const TICKET_TEMPLATE = 'ticket';
export const INVITE_TEMPLATE = 'attendee_invite';

/** A delivery result of a ticket or invite message moves the status of the tickets it was about. */
async function deliveryResult(trx: Transaction<DB>, e: PreparedEvent, status: 'delivered' | 'failed') {
  const message = e.envelope.data.object as { template?: string; related?: string[] };
  const column = message.template === TICKET_TEMPLATE ? 'ticket_delivery_status' : message.template === INVITE_TEMPLATE ? 'invite_status' : null;
  const ticketIds = (message.related ?? []).filter((id) => id.startsWith('tkt_'));
  if (!column || ticketIds.length === 0) return;
  await scoped(trx, e.scope)
    .updateTable('tickets')
    .set({ [column]: status })
    .where('id', 'in', ticketIds)
    .where(column, '!=', 'not_requested')
    .execute();
}

/**
 * Ticketing's `onEvents`: runs in the emitting transaction, so a status moves exactly when its cause commits. A
 * paid ticket's delivery becomes `queued` where its message is written (`issuePaidTickets`), in the same update
 * that makes it valid.
 */
export const attendeeDeliverySubscriber: EventSubscriber = async (trx, events) => {
  for (const e of events) {
    const type = e.envelope.type;
    if (type === 'messaging.message.delivered') await deliveryResult(trx, e, 'delivered');
    else if (type === 'messaging.message.failed') await deliveryResult(trx, e, 'failed');
  }
};
