import { sql, type Transaction } from 'kysely';
import type { EventSubscriber, PreparedEvent } from '../../../core/events/event-subscribers';
import { scoped } from '../../../core/scope';
import type { DB } from '../../../db/schema';

/** The messages whose delivery an attendee shows, by the outbox template they were written with. */
export const TICKET_TEMPLATE = 'ticket';
export const INVITE_TEMPLATE = 'attendee_invite';

/**
 * Payment wrote each attendee's ticket message (to them, else to the buyer): their ticket is on its way. The
 * orders paid together in one transaction move in one statement per scope.
 */
async function ticketsQueued(trx: Transaction<DB>, paid: readonly PreparedEvent[]) {
  const byScope = new Map<string, { scope: PreparedEvent['scope']; orders: string[] }>();
  for (const e of paid) {
    const key = `${e.scope.tenantId}:${e.scope.livemode}`;
    if (!byScope.has(key)) byScope.set(key, { scope: e.scope, orders: [] });
    byScope.get(key)!.orders.push(e.envelope.subject);
  }
  for (const { scope, orders } of byScope.values()) {
    await scoped(trx, scope)
      .updateTable('tickets')
      .set({ ticket_delivery_status: 'queued' })
      .where('order_id', '=', sql<string>`any(${orders}::text[])`)
      .where('status', '=', 'valid')
      .where(sql<boolean>`(tickets.email is not null or tickets.phone is not null
        or exists (select 1 from orders o where o.id = tickets.order_id and (o.buyer_email is not null or o.buyer_phone is not null)))`)
      .execute();
  }
}

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

/** Ticketing's `onEvents`: runs in the emitting transaction, so a status moves exactly when its cause commits. */
export const attendeeDeliverySubscriber: EventSubscriber = async (trx, events) => {
  const paid = events.filter((e) => e.envelope.type === 'events.order.paid');
  if (paid.length > 0) await ticketsQueued(trx, paid);
  for (const e of events) {
    const type = e.envelope.type;
    if (type === 'messaging.message.delivered') await deliveryResult(trx, e, 'delivered');
    else if (type === 'messaging.message.failed') await deliveryResult(trx, e, 'failed');
  }
};
