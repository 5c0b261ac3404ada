import type { EntitlementLimitsInput } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema';
import type { Scope } from '../../../core/scope';
import type { PreparedEvent } from '../../../core/events/emit-event';
import { grantEntitlementsInTransaction, revokeEntitlementInTransaction, revokeEntitlementsBySource, type TransactionalGrant } from '../../access';
import { findOrCreateCustomersByEmail } from '../../identity';
import type { EventRow, TicketTypeRow } from '../booking/catalogue-reads';
import { makeTicketsValid, type TicketRow } from '../tickets/ticket-rows.service';
import { ticketMessageTo } from './order-messages';
import type { OrderRow } from './orders.repository';

/** How long after the event's end a ticket's stream stays open (recordings, late viewers). */
const STREAM_GRACE_MS = 6 * 60 * 60 * 1000;

/** The order code an `access.entitlement.granted` event's entitlement was granted for. */
const sourceRefOf = (e: PreparedEvent) => (e.envelope.data.object as { source_ref?: string | null }).source_ref ?? '';

/** An order being paid, with the tickets it is paying for. */
export interface PaidOrderTickets {
  order: OrderRow;
  tickets: readonly TicketRow[];
  event: EventRow;
  ticketType: TicketTypeRow;
}

/**
 * The paid order's tickets issued, each ticket row written once: valid; held by its attendee's customer (found or
 * created by their email, else the buyer's: signed in, or found or created by the buyer's email) and, when the
 * event has a stream, an entitlement to it (`source: ticket`, `source_ref` = the order code, the ticket type's
 * `stream_limits`, until the event's end plus 6 hours); its message's delivery `queued` when it has somewhere to
 * go. `tickets` are the rows locked to be issued. A statement for the customers (and one for their locks), one
 * check and one insert for the entitlements, one update of the tickets, whatever their number: answers the
 * tickets as updated, and the entitlement events for the caller to record with its own.
 */
export async function issuePaidTickets(
  trx: Transaction<DB>,
  scope: Scope,
  order: OrderRow,
  tickets: readonly TicketRow[],
  event: EventRow,
  ticketType: TicketTypeRow,
  now: Date,
): Promise<{ tickets: TicketRow[]; events: PreparedEvent[] }> {
  const [issued] = await issuePaidTicketsOfOrders(trx, scope, [{ order, tickets, event, ticketType }], now);
  return issued!;
}

/**
 * `issuePaidTickets` for several orders of one scope at once, in the same statements as for one: answers, per
 * order and in the same order, its tickets as updated and its entitlement events.
 */
export async function issuePaidTicketsOfOrders(
  trx: Transaction<DB>,
  scope: Scope,
  orders: readonly PaidOrderTickets[],
  now: Date,
): Promise<Array<{ tickets: TicketRow[]; events: PreparedEvent[] }>> {
  const nameOf = (t: TicketRow) => [t.first_name, t.last_name].filter(Boolean).join(' ') || null;
  const people: Array<{ email: string; name: string | null }> = [];
  for (const { order, tickets } of orders) {
    people.push(...tickets.filter((t) => t.email).map((t) => ({ email: t.email!, name: nameOf(t) })));
    if (!order.customer_id && order.buyer_email !== null && tickets.some((t) => !t.email)) people.push({ email: order.buyer_email, name: order.buyer_name });
  }
  const found = await findOrCreateCustomersByEmail(trx, scope, people);
  const held = orders.map(({ order, tickets }) => {
    const buyer = order.customer_id ?? (order.buyer_email ? (found.get(order.buyer_email.toLowerCase()) ?? null) : null);
    return tickets.map((ticket) => ({ ticket, customer: ticket.email ? found.get(ticket.email.toLowerCase())! : buyer }));
  });
  // The stream grants of every held ticket of an order with a stream, in one list (their events come back in the list's order).
  const grants: TransactionalGrant[] = [];
  const grantOf = held.map((list, i) => {
    const { order, event, ticketType } = orders[i]!;
    return list.map((h) =>
      !event.live_stream_id || h.customer === null
        ? -1
        : grants.push({
            customer: h.customer,
            resource: { type: 'ls' as const, id: event.live_stream_id },
            source: 'ticket' as const,
            source_ref: order.code,
            ends_at: new Date(new Date(event.ends_at).getTime() + STREAM_GRACE_MS),
            limits: (ticketType.stream_limits ?? null) as EntitlementLimitsInput | null,
          }) - 1,
    );
  });
  const granted = grants.length ? await grantEntitlementsInTransaction(trx, scope, grants, now) : { entitlements: [], events: [] };
  const updated = await makeTicketsValid(
    trx,
    scope,
    held.flatMap((list, i) =>
      list.map((h, j) => ({
        id: h.ticket.id,
        holder: h.customer === null ? null : { customerId: h.customer, entitlementId: grantOf[i]![j]! >= 0 ? (granted.entitlements[grantOf[i]![j]!]?.id ?? null) : null },
        messageQueued: ticketMessageTo(orders[i]!.order, h.ticket) !== null,
      })),
    ),
  );
  const byId = new Map(updated.map((t) => [t.id, t]));
  // Each order's events: those of the entitlements made for its code (a grant's event names its source_ref).
  const eventsOf = new Map<string, PreparedEvent[]>();
  for (const e of granted.events) {
    const list = eventsOf.get(sourceRefOf(e)) ?? [];
    list.push(e);
    eventsOf.set(sourceRefOf(e), list);
  }
  return orders.map(({ order, tickets }) => ({
    tickets: tickets.map((t) => byId.get(t.id) ?? t),
    events: orders.length === 1 ? granted.events : (eventsOf.get(order.code) ?? []),
  }));
}

/** Takes the order's streams away again (refund, cancellation); safe to repeat. */
export const revokeTicketHolders = (trx: Transaction<DB>, scope: Scope, order: OrderRow, now: Date) =>
  revokeEntitlementsBySource(trx, scope, 'ticket', order.code, now);

/**
 * Takes one voided ticket's stream away from its holder (a rejected attendee), unless another ticket of the
 * order still admits the same customer through the same entitlement.
 */
export async function revokeTicketHolder(trx: Transaction<DB>, scope: Scope, ticketId: string, now: Date) {
  const ticket = await trx
    .selectFrom('tickets')
    .select(['order_id', 'entitlement_id'])
    .where('tenant_id', '=', scope.tenantId)
    .where('livemode', '=', scope.livemode)
    .where('id', '=', ticketId)
    .executeTakeFirst();
  if (!ticket?.entitlement_id) return;
  const sharing = await trx
    .selectFrom('tickets')
    .select('id')
    .where('tenant_id', '=', scope.tenantId)
    .where('livemode', '=', scope.livemode)
    .where('order_id', '=', ticket.order_id)
    .where('entitlement_id', '=', ticket.entitlement_id)
    .where('status', '!=', 'void')
    .where('id', '!=', ticketId)
    .executeTakeFirst();
  if (!sharing) await revokeEntitlementInTransaction(trx, scope, ticket.entitlement_id, now);
}
