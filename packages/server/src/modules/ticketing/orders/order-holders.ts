import type { EntitlementLimitsInput } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema';
import type { Scope } from '../../../core/scope';
import { grantEntitlementInTransaction, revokeEntitlementInTransaction, revokeEntitlementsBySource } from '../../access';
import { findOrCreateCustomerByEmail } from '../../identity';
import type { EventRow, TicketTypeRow } from '../booking/catalogue-reads';
import { setTicketHolder, type TicketRow } from '../tickets/ticket-rows.service';
import type { OrderRow } from './orders.repository';

/** How long after the event's end a ticket's stream stays open (recordings, late viewers). */
const STREAM_GRACE_MS = 6 * 60 * 60 * 1000;

/**
 * Each attendee's customer (found or created by their email, else the buyer's: signed in, or found or created
 * by the buyer's email) holds the ticket, and
 * when the event has a stream, an entitlement to it: `source: ticket`, `source_ref` = the order code, the
 * ticket type's `stream_limits`, until the event's end plus 6 hours.
 */
export async function grantTicketHolders(
  trx: Transaction<DB>,
  scope: Scope,
  order: OrderRow,
  tickets: readonly TicketRow[],
  event: EventRow,
  ticketType: TicketTypeRow,
  now: Date,
): Promise<void> {
  let buyerCustomer: string | null | undefined = order.customer_id ?? undefined;
  const buyersCustomer = async () => {
    if (buyerCustomer === undefined) {
      buyerCustomer = order.buyer_email ? (await findOrCreateCustomerByEmail(trx, scope, order.buyer_email, order.buyer_name)).id : null;
    }
    return buyerCustomer;
  };
  for (const ticket of tickets) {
    const name = [ticket.first_name, ticket.last_name].filter(Boolean).join(' ') || null;
    const customer = ticket.email ? (await findOrCreateCustomerByEmail(trx, scope, ticket.email, name)).id : await buyersCustomer();
    if (!customer) continue;
    const entitlement = event.live_stream_id
      ? await grantEntitlementInTransaction(
          trx,
          scope,
          {
            customer,
            resource: { type: 'ls', id: event.live_stream_id },
            source: 'ticket',
            source_ref: order.code,
            ends_at: new Date(new Date(event.ends_at).getTime() + STREAM_GRACE_MS),
            limits: (ticketType.stream_limits ?? null) as EntitlementLimitsInput | null,
          },
          now,
        )
      : null;
    await setTicketHolder(trx, scope, ticket.id, customer, entitlement?.id ?? null);
  }
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
